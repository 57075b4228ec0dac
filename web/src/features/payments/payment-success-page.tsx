import { useQuery } from '@tanstack/react-query';
import { CircleCheck, Loader2, Mail, ShieldCheck } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import type { PublicConfig } from '../../../../shared/schemas/config';
import type { InvoiceView } from '../../../../shared/schemas/invoice';
import { requestNumber } from '../../../../shared/domain/requests';
import { requestInvoiceKey } from '../../components/invoices/invoice-rules';
import { buttonClasses } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { paths } from '../../lib/paths';
import { useCountdownRedirect } from '../../lib/use-countdown-redirect';
import { useDocumentTitle } from '../../lib/use-document-title';
import { CountdownNote } from './countdown-note';
import { PAYMENT_REDIRECT_MS, confirmationOf, confirmationPollInterval, confirmationText, feeLine, paymentParams } from './payment-pages';

/**
 * /payment-success and /payment/success: where the card provider sends the customer after checkout.
 * It says "Payment confirmed" only once our side has the provider's word (its webhook marks the
 * invoice paid), and goes home after 8 s.
 */
export default function PaymentSuccessPage() {
  useDocumentTitle('Payment Successful');
  const [search] = useSearchParams();
  const { sessionId, jobId } = paymentParams(search);
  const countdown = useCountdownRedirect(paths.home, PAYMENT_REDIRECT_MS);
  const config = useQuery<PublicConfig>({ queryKey: ['/api/config'] });
  const invoice = useQuery<InvoiceView>({
    queryKey: requestInvoiceKey(jobId ?? ''),
    enabled: jobId !== null,
    staleTime: 0,
    refetchInterval: (query) => confirmationPollInterval(query.state.data, query.state.error),
  });
  const confirmation = jobId ? confirmationText(confirmationOf(invoice.data, invoice.error)) : null;
  const fee = feeLine(config.data);
  const confirmed = invoice.data?.paymentStatus === 'paid';

  return (
    <div className="mx-auto max-w-2xl px-4 py-12">
      <Card className="grid justify-items-center gap-5 text-center">
        <CircleCheck aria-hidden="true" className="size-16 text-green-300" />
        <h1 className="text-3xl font-bold tracking-tight text-white sm:text-4xl">Payment Successful!</h1>
        <p className="text-lg text-slate-200">Thank you. Your payment has been received.</p>

        {jobId || sessionId ? (
          <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr] sm:text-left">
            {jobId ? (
              <>
                <dt className="text-slate-300">Job ID</dt>
                <dd className="font-mono font-semibold text-white">{requestNumber(jobId)}</dd>
              </>
            ) : null}
            {sessionId ? (
              <>
                <dt className="text-slate-300">Session ID</dt>
                <dd className="break-all font-mono text-slate-100">{sessionId}</dd>
              </>
            ) : null}
          </dl>
        ) : null}

        {/* Present from the start, so the change to "Payment confirmed" is read out. */}
        <p role="status" className="flex items-center gap-2 text-sm font-semibold">
          {confirmation ? (
            confirmed ? (
              <>
                <CircleCheck aria-hidden="true" className="size-4 text-green-300" />
                <span className="text-green-200">{confirmation}</span>
              </>
            ) : (
              <>
                <Loader2 aria-hidden="true" className="size-4 animate-spin text-amber-300 motion-reduce:animate-none" />
                <span className="text-amber-100">{confirmation}</span>
              </>
            )
          ) : null}
        </p>

        <ul className="grid gap-2 text-sm text-slate-200 sm:text-left">
          <li className="flex items-start gap-2">
            <Mail aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-amber-300" />A receipt has been emailed to you.
          </li>
          <li className="flex items-start gap-2">
            <ShieldCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-amber-300" />
            Your payment is secured by Stripe.
          </li>
          {fee ? (
            <li className="flex items-start gap-2">
              <CircleCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-amber-300" />
              {fee}
            </li>
          ) : null}
        </ul>

        <div className="flex flex-wrap justify-center gap-3">
          <Link to={paths.home} className={buttonClasses('primary', 'md')}>
            Back to Home
          </Link>
          <Link to={paths.clientDashboard} className={buttonClasses('outline', 'md')}>
            Find More Workers
          </Link>
        </div>

        <CountdownNote where="the home page" seconds={countdown.seconds} stayed={countdown.stayed} onStay={countdown.stay} />
      </Card>
    </div>
  );
}
