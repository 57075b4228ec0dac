import { useQuery, useQueryClient } from '@tanstack/react-query';
import { CircleAlert, CircleCheck, Loader2, ReceiptText, ShieldCheck, Star } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import { requestNumber } from '../../../../shared/domain/requests';
import type { PaymentConfirmationView } from '../../../../shared/schemas/job';
import { Button, buttonClasses } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { queryKeys } from '../../lib/query-keys';
import { useDisplaySettings } from '../../lib/config';
import { paths } from '../../lib/paths';
import { useDocumentTitle } from '../../lib/use-document-title';
import {
  receiptNote,
  confirmationPollInterval,
  paidAtText,
  paymentOutcome,
  paymentParams,
  receiptLines,
  unconfirmedLink,
  type PaymentOutcome,
} from './payment-pages';

const titles: Record<PaymentOutcome, string> = {
  confirming: 'Confirming Payment',
  paid: 'Payment Successful',
  unconfirmed: 'Payment Not Confirmed',
};

/**
 * /payment-success and /payment/success: where the card provider sends the customer after checkout.
 * The return link proves nothing (anyone can type it), so the screen asks the server whether the
 * job's invoice is paid, a few times while the provider's webhook may still be on its way, and says
 * "Payment Successful!" only when it is. A paid page stays: it is the receipt, and holds the rating.
 */
export default function PaymentSuccessPage() {
  const [search] = useSearchParams();
  const { sessionId, jobId } = paymentParams(search);
  const settings = useDisplaySettings();
  const queryClient = useQueryClient();
  const queryKey = queryKeys.paymentConfirmation(jobId, sessionId);
  const confirmation = useQuery<PaymentConfirmationView>({
    queryKey,
    enabled: jobId !== null,
    staleTime: 0,
    refetchInterval: (query) =>
      confirmationPollInterval({
        jobId,
        data: query.state.data,
        error: query.state.error,
        attempts: query.state.dataUpdateCount + query.state.errorUpdateCount,
      }),
  });
  // Read so that every answer renders again, even one the same as the last ("not paid yet").
  const answeredAt = Math.max(confirmation.dataUpdatedAt, confirmation.errorUpdatedAt);
  const state = answeredAt > 0 ? queryClient.getQueryState(queryKey) : undefined;
  const outcome = paymentOutcome({
    jobId,
    data: confirmation.data,
    error: confirmation.error,
    attempts: (state?.dataUpdateCount ?? 0) + (state?.errorUpdateCount ?? 0),
  });
  useDocumentTitle(titles[outcome]);
  const paid = outcome === 'paid' ? confirmation.data : undefined;

  return (
    <div className="mx-auto max-w-2xl px-4 py-12">
      <Card className="grid justify-items-center gap-5 text-center">
        {/* One live region for the outcome, so the change from confirming is read out. */}
        <div role="status" className="grid justify-items-center gap-3">
          {outcome === 'confirming' ? (
            <>
              <Loader2 aria-hidden="true" className="size-16 animate-spin text-amber-300 motion-reduce:animate-none" />
              <h1 className="text-3xl font-bold tracking-tight text-white sm:text-4xl">Confirming your payment...</h1>
              <p className="text-lg text-slate-200">We are checking with Stripe. This can take a few seconds.</p>
            </>
          ) : paid ? (
            <>
              <CircleCheck aria-hidden="true" className="size-16 text-green-300" />
              <h1 className="text-3xl font-bold tracking-tight text-white sm:text-4xl">Payment Successful!</h1>
              <p className="text-lg text-slate-200">Thank you. Your payment has been received.</p>
            </>
          ) : (
            <>
              <CircleAlert aria-hidden="true" className="size-16 text-orange-300" />
              <h1 className="text-3xl font-bold tracking-tight text-white sm:text-4xl">We could not confirm this payment</h1>
              <p className="text-lg text-slate-200">
                {jobId
                  ? 'We have no word from Stripe that this invoice is paid. Your invoice shows whether it is, and you can pay it there if it is not.'
                  : 'This link does not say which job was paid. Your requests and their invoices are on the home page.'}
              </p>
            </>
          )}
        </div>

        {paid ? <Receipt confirmation={paid} settings={settings} /> : null}

        {outcome === 'unconfirmed' ? <Unconfirmed jobId={jobId} retry={jobId ? () => void confirmation.refetch() : undefined} busy={confirmation.isFetching} /> : null}
      </Card>
    </div>
  );
}

function Receipt({ confirmation, settings }: { confirmation: PaymentConfirmationView; settings: ReturnType<typeof useDisplaySettings> }) {
  const lines = receiptLines(confirmation, settings);
  const paidAt = paidAtText(confirmation.paidAt, settings.locale);
  return (
    <>
      <dl className="grid w-full max-w-md gap-x-6 gap-y-2 text-sm sm:grid-cols-[auto_1fr] sm:text-left" data-testid="payment-receipt">
        <dt className="text-slate-300">Job ID</dt>
        <dd className="font-mono font-semibold text-white">{requestNumber(confirmation.jobId)}</dd>
        {confirmation.invoiceNumber ? (
          <>
            <dt className="text-slate-300">Invoice</dt>
            <dd className="font-semibold text-white">{confirmation.invoiceNumber}</dd>
          </>
        ) : null}
        {confirmation.service ? (
          <>
            <dt className="text-slate-300">Service</dt>
            <dd className="text-white">{confirmation.service}</dd>
          </>
        ) : null}
        {lines.map((line) => (
          <div key={line.label} className="contents">
            <dt className="text-slate-300">{line.label}</dt>
            <dd className="font-semibold tabular-nums text-white">{line.value}</dd>
          </div>
        ))}
        {paidAt ? (
          <>
            <dt className="text-slate-300">Paid</dt>
            <dd className="text-white">
              <time dateTime={confirmation.paidAt ?? undefined}>{paidAt}</time>
            </dd>
          </>
        ) : null}
      </dl>

      <ul className="grid gap-2 text-sm text-slate-200 sm:text-left">
        <li className="flex items-start gap-2">
          <ReceiptText aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-amber-300" />
          {receiptNote(confirmation)}
        </li>
        <li className="flex items-start gap-2">
          <ShieldCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-amber-300" />
          Your payment is secured by Stripe.
        </li>
      </ul>

      <div className="flex flex-wrap justify-center gap-3">
        {confirmation.rated ? (
          <p className="w-full text-sm text-slate-300">Thank you for rating this job.</p>
        ) : (
          <Link to={paths.rate(confirmation.jobId)} className={buttonClasses('primary', 'md')}>
            <Star aria-hidden="true" className="size-4" /> Rate your pro
          </Link>
        )}
        <Link to={paths.home} className={buttonClasses(confirmation.rated ? 'primary' : 'outline', 'md')}>
          Back to Home
        </Link>
        <Link to={paths.clientDashboard} className={buttonClasses('outline', 'md')}>
          Find More Workers
        </Link>
      </div>
    </>
  );
}

function Unconfirmed({ jobId, retry, busy }: { jobId: string | null; retry?: () => void; busy: boolean }) {
  const link = unconfirmedLink(jobId);
  return (
    <div className="flex flex-wrap justify-center gap-3">
      <Link to={link.to} className={buttonClasses('primary', 'md')}>
        {link.label}
      </Link>
      {retry ? (
        <Button variant="outline" onClick={retry} disabled={busy}>
          {busy ? 'Checking...' : 'Check again'}
        </Button>
      ) : null}
    </div>
  );
}
