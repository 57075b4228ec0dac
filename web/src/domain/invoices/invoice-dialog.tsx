import { useQuery } from '@tanstack/react-query';
import { CircleCheck, CreditCard, Hourglass, ShieldCheck } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { createPortal } from 'react-dom';
import { invoiceNumber } from '../../../../shared/domain/invoice';
import type { InvoiceView } from '../../../../shared/schemas/invoice';
import { isLiveScoped, POLL_WHILE_CONNECTED_MS, useRealtimeStatus } from '../../lib/realtime';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { ModalDialog } from '../../components/ui/modal-dialog';
import { Skeleton } from '../../components/ui/skeleton';
import { INVOICE_POLL_MS, canVerifyInvoice, estimateBesideInvoice, invoiceFeeLines, invoiceLoadProblem, isCustomerView, type InvoiceViewer, payButtonOf, paymentDetailLabel, paymentTone, verificationStateText } from './invoice-rules';
import { formatHourlyRate, formatHours, formatMoney } from '../../lib/money';
import { usePayInvoice, useVerifyInvoiceWork } from './use-invoice-actions';
import { formatDateTime } from '../../lib/date-time';
import { LoadError, Loading } from '../../components/ui/load-state';
import { queryKeys } from '../../lib/query-keys';
import { paths } from '../../lib/paths';

/**
 * One invoice: its lines, whether the work is verified, and for its
 * customer the pay button, plus Verify Work while the work is not verified yet (an invoice made after
 * the customer approved the work arrives verified, so the work is verified once). Polled while open,
 * so a payment confirmed by the card provider shows without reopening. Rendered into <body>, away
 * from the live regions of the cards it is opened from.
 */
export function InvoiceDialog({
  invoiceId,
  onClose,
  viewer = 'customer',
  estimatedTotal = null,
}: {
  invoiceId: string;
  onClose: () => void;
  viewer?: InvoiceViewer;
  /** The job's estimate when it was sent (cents), shown beside the amount billed; null where there is none. */
  estimatedTotal?: number | null;
}) {
  const connected = useRealtimeStatus() === 'connected';
  const invoice = useQuery<InvoiceView>({
    queryKey: queryKeys.invoice(invoiceId),
    // Slower only while the invoice's job room is held (its request card is live) and the socket is up.
    refetchInterval: (query) =>
      query.state.data?.paymentStatus === 'paid' || query.state.error
        ? false
        : connected && isLiveScoped(query.state.data?.serviceRequestId)
          ? POLL_WHILE_CONNECTED_MS
          : INVOICE_POLL_MS,
    // The list may have it already; the dialog still asks for the current state.
    staleTime: 0,
  });

  return createPortal(
    <ModalDialog
      title={`Invoice #${invoiceNumber(invoiceId)}`}
      description={invoice.data ? `From ${invoice.data.workerName}, ${formatDateTime(invoice.data.createdAt, 'date') ?? '—'}` : undefined}
      onClose={onClose}
    >
      {invoice.data ? (
        <InvoiceBody invoice={invoice.data} onClose={onClose} viewer={viewer} estimatedTotal={estimatedTotal} />
      ) : invoice.isError ? (
        <LoadFailure error={invoice.error} onRetry={() => void invoice.refetch()} retrying={invoice.isFetching} onClose={onClose} />
      ) : (
        <Loading label="Loading the invoice...">
          <Skeleton className="h-5 w-2/3" />
          <Skeleton className="h-5 w-1/2" />
          <Skeleton className="h-24 w-full" />
        </Loading>
      )}
    </ModalDialog>,
    document.body,
  );
}

function LoadFailure({ error, onRetry, retrying, onClose }: { error: unknown; onRetry: () => void; retrying: boolean; onClose: () => void }) {
  const problem = invoiceLoadProblem(error);
  return (
    <div className="grid gap-4">
      <LoadError message={problem.message} detail={problem.detail} onRetry={problem.retry ? onRetry : undefined} retrying={retrying} />
      <div className="flex flex-wrap justify-end gap-3">
        <Button variant="ghost" onClick={onClose}>
          Close
        </Button>
      </div>
    </div>
  );
}

function Line({ term, children }: { term: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-slate-300">{term}</dt>
      <dd className="break-words text-slate-100">{children}</dd>
    </>
  );
}

function InvoiceBody({
  invoice,
  onClose,
  viewer,
  estimatedTotal,
}: {
  invoice: InvoiceView;
  onClose: () => void;
  viewer: InvoiceViewer;
  estimatedTotal: number | null;
}) {
  const verify = useVerifyInvoiceWork();
  const { pay, creating } = usePayInvoice();
  const customer = isCustomerView(invoice);
  const payButton = payButtonOf(invoice, creating, viewer);
  const estimate = estimateBesideInvoice(invoice, estimatedTotal);
  // A line of a crew's one bill is verified and paid with the others, on the request's page.
  const crewRequestId = customer ? invoice.crewRequestId : null;

  return (
    <div className="grid gap-5">
      <dl className="grid gap-x-4 gap-y-1.5 text-sm sm:grid-cols-[auto_1fr]">
        <Line term="Customer">{invoice.customerName}</Line>
        <Line term="Service">{invoice.service}</Line>
        <Line term="Location">{invoice.location}</Line>
        <Line term="Description">{invoice.description}</Line>
      </dl>

      <table className="w-full text-sm">
        <caption className="sr-only">Charges</caption>
        <tbody className="divide-y divide-white/10">
          <tr>
            <th scope="row" className="py-2 text-left font-normal text-slate-300">
              Labor hours
            </th>
            <td className="py-2 text-right tabular-nums">{formatHours(invoice.laborHours)}</td>
          </tr>
          <tr>
            <th scope="row" className="py-2 text-left font-normal text-slate-300">
              Hourly rate
            </th>
            <td className="py-2 text-right tabular-nums">{formatHourlyRate(invoice.hourlyRate)}</td>
          </tr>
          {invoice.materialsCost > 0 ? (
            <tr>
              <th scope="row" className="py-2 text-left font-normal text-slate-300">
                Materials
              </th>
              <td className="py-2 text-right tabular-nums">{formatMoney(invoice.materialsCost)}</td>
            </tr>
          ) : null}
          {invoiceFeeLines(invoice).map((line) => (
            <tr key={line.label}>
              <th scope="row" className="py-2 text-left font-normal text-slate-300">
                {line.label}
              </th>
              <td className="py-2 text-right tabular-nums">{formatMoney(line.cents)}</td>
            </tr>
          ))}
          <tr>
            <th scope="row" className="py-2 text-left text-base font-bold text-white">
              Total
            </th>
            <td className="py-2 text-right text-base font-bold tabular-nums text-white">{formatMoney(invoice.totalAmount)}</td>
          </tr>
          {estimate !== null ? (
            <tr>
              <th scope="row" className="py-2 text-left font-normal text-slate-300">
                Estimated when booked
              </th>
              <td className="py-2 text-right tabular-nums text-slate-300">{formatMoney(estimate)}</td>
            </tr>
          ) : null}
        </tbody>
      </table>

      {invoice.notes ? (
        <div className="rounded-lg bg-slate-950/60 p-3 text-sm">
          <p className="font-semibold text-slate-200">Notes from {invoice.workerName}</p>
          <p className="mt-1 whitespace-pre-line text-slate-100">{invoice.notes}</p>
        </div>
      ) : null}

      {/* Polled: a verification or payment that lands while the dialog is open is read out. */}
      <div aria-live="polite" className="flex flex-wrap items-center gap-2 text-sm">
        <Badge tone={invoice.workVerified ? 'green' : 'amber'}>
          {invoice.workVerified ? <ShieldCheck aria-hidden="true" className="mr-1 size-3.5" /> : <Hourglass aria-hidden="true" className="mr-1 size-3.5" />}
          {verificationStateText(invoice.workVerified)}
        </Badge>
        <Badge tone={paymentTone(invoice.paymentStatus)}>
          {invoice.paymentStatus === 'paid' ? <CircleCheck aria-hidden="true" className="mr-1 size-3.5" /> : null}
          Payment: {paymentDetailLabel(invoice.paymentStatus)}
        </Badge>
      </div>

      {crewRequestId ? (
        <p className="text-sm text-slate-200">
          One pro's line of your bill for the whole crew: verify and pay it with the others on{' '}
          <Link to={paths.track(crewRequestId)} onClick={onClose} className="font-medium text-amber-300 underline underline-offset-4">
            the request's page
          </Link>
          .
        </p>
      ) : null}

      {customer && viewer === 'customer' && !invoice.workVerified && !crewRequestId ? (
        <p className="text-sm text-slate-300">Please verify the work and the charges before paying.</p>
      ) : null}

      <div className="flex flex-wrap justify-end gap-3">
        <Button variant="ghost" onClick={onClose}>
          Close
        </Button>
        {canVerifyInvoice(invoice, viewer) && !crewRequestId ? (
          <Button variant="outline" onClick={() => verify.mutate(invoice.id)} disabled={verify.isPending} aria-busy={verify.isPending}>
            <ShieldCheck aria-hidden="true" className="size-4" />
            Verify Work
          </Button>
        ) : null}
        {customer && !crewRequestId ? (
          <Button onClick={() => pay(invoice)} disabled={payButton.disabled} data-testid="pay-invoice">
            <CreditCard aria-hidden="true" className="size-4" />
            {payButton.label}
          </Button>
        ) : null}
      </div>
    </div>
  );
}
