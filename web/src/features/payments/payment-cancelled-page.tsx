import { CircleX } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import { requestNumber } from '../../../../shared/domain/requests';
import { buttonClasses } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { paths } from '../../lib/paths';
import { useCountdownRedirect } from '../../lib/use-countdown-redirect';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useSignedInWorker } from '../../lib/worker-token';
import { CountdownNote } from './countdown-note';
import { PAYMENT_REDIRECT_MS, cancelledDestination, paymentParams } from './payment-pages';

/**
 * /payment-cancelled and /payment/cancel: the customer left the card provider's checkout without
 * paying. They go back to their request, where the invoice is still open; a signed-in worker who
 * opened checkout for them goes back to the dashboard.
 */
export default function PaymentCancelledPage() {
  useDocumentTitle('Payment Cancelled');
  const [search] = useSearchParams();
  const { jobId } = paymentParams(search);
  const worker = useSignedInWorker();
  const destination = cancelledDestination(jobId, worker !== null);
  const countdown = useCountdownRedirect(destination.to, PAYMENT_REDIRECT_MS);

  return (
    <div className="mx-auto max-w-2xl px-4 py-12">
      <Card className="grid justify-items-center gap-5 text-center">
        <CircleX aria-hidden="true" className="size-16 text-orange-300" />
        <h1 className="text-3xl font-bold tracking-tight text-white sm:text-4xl">Payment Cancelled</h1>
        <p className="text-lg text-slate-200">No charges were made to your card.</p>
        {jobId ? (
          <p className="text-sm text-slate-300">
            Job ID <span className="font-mono font-semibold text-white">{requestNumber(jobId)}</span>
          </p>
        ) : null}
        <p className="text-slate-200">
          {jobId
            ? 'Your invoice is still open: you can pay it from your request whenever you are ready.'
            : 'An open invoice stays open: you can pay it from your request whenever you are ready.'}
        </p>
        <div className="flex flex-wrap justify-center gap-3">
          <Link to={destination.to} className={buttonClasses('primary', 'md')}>
            {destination.label}
          </Link>
          {destination.to !== paths.home ? (
            <Link to={paths.home} className={buttonClasses('outline', 'md')}>
              Back to Home
            </Link>
          ) : null}
        </div>
        <CountdownNote where={destination.where} seconds={countdown.seconds} stayed={countdown.stayed} onStay={countdown.stay} />
      </Card>
    </div>
  );
}
