import { useQueryClient } from '@tanstack/react-query';
import { FileText, Hourglass } from 'lucide-react';
import { lazy, Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import { jobAmountCents } from '../../../../shared/domain/earnings';
import { roundHours } from '../../../../shared/domain/invoice';
import type { WorkerJobView } from '../../../../shared/schemas/job';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { errorMessage } from '../../lib/api';
import { paymentStateOf, payoutLabelOf } from './earnings-summary';

// Loaded when first opened: the invoice form is not needed to show the job.
const InvoiceDialog = lazy(() => import('./invoice-dialog').then((m) => ({ default: m.InvoiceDialog })));
import { useWorkerInvoices } from './jobs-api';
import { formatDateTime } from '../../lib/date-time';
import { formatHours, formatMoney } from '../../lib/money';
import { LoadError, Loading } from '../../components/ui/load-state';
import { queryKeys } from '../../lib/query-keys';

/** States past Complete Job: the work is done and what is left is the customer's approval and the money. */
export function isFinishedJob(job: Pick<WorkerJobView, 'state'>): boolean {
  return job.state === 'completed' || job.state === 'verified' || job.state === 'paid';
}

/**
 * A finished job's summary and where its money stands: awaiting the customer's approval, ready to
 * invoice (Create Invoice), or the invoice's payment state once sent.
 */
export function JobInvoiceSection({ job, workerId, feePercent }: { job: WorkerJobView; workerId: string; feePercent: number | null }) {
  const [invoicing, setInvoicing] = useState(false);
  const started = formatDateTime(job.startedAt);
  const ended = formatDateTime(job.endedAt);
  // The clock's estimate helps until there is an invoice; after that the invoice's own figures rule.
  const labour = job.totalHours === null || job.invoiceId ? null : jobAmountCents(roundHours(job.totalHours), job.hourlyRate);

  return (
    <Card>
      <h2 className="text-xl font-semibold text-white">Work summary</h2>
      <dl className="mt-4 grid gap-4 text-sm sm:grid-cols-2">
        {started ? <Item label="Started">{started}</Item> : null}
        {ended ? <Item label="Completed">{ended}</Item> : null}
        {job.totalHours !== null ? <Item label="Billable hours">{formatHours(job.totalHours)}</Item> : null}
        {labour !== null ? <Item label="Labour at your rate">{formatMoney(labour)}</Item> : null}
      </dl>

      <div className="mt-6 border-t border-white/10 pt-5">
        {job.invoiceId ? (
          <InvoiceState job={job} invoiceId={job.invoiceId} workerId={workerId} />
        ) : job.canInvoice ? (
          <div className="flex flex-wrap items-center justify-between gap-4">
            <p className="text-slate-100">The customer approved the work. Send your invoice to get paid.</p>
            <Button size="lg" onClick={() => setInvoicing(true)}>
              <FileText aria-hidden="true" className="size-5" />
              Create Invoice
            </Button>
          </div>
        ) : (
          <p className="flex items-start gap-2 text-slate-200">
            <Hourglass aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-amber-300" />
            Waiting for the customer to approve the work. You can send your invoice once they do.
          </p>
        )}
      </div>
      {invoicing ? (
        <Suspense fallback={null}>
          <InvoiceDialog job={job} workerId={workerId} feePercent={feePercent} onClose={() => setInvoicing(false)} />
        </Suspense>
      ) : null}
    </Card>
  );
}

/** The sent invoice, from the worker's invoice list, re-read whenever the polled job moves (paid). */
function InvoiceState({ job, invoiceId, workerId }: { job: WorkerJobView; invoiceId: string; workerId: string }) {
  const invoices = useWorkerInvoices(workerId);
  const queryClient = useQueryClient();
  const seenState = useRef(job.state);
  useEffect(() => {
    if (seenState.current === job.state) return;
    seenState.current = job.state;
    void queryClient.invalidateQueries({ queryKey: queryKeys.workerInvoices(workerId) });
  }, [job.state, queryClient, workerId]);

  const invoice = invoices.data?.find((item) => item.id === invoiceId);
  if (!invoice) {
    if (invoices.isPending) {
      return <Loading label="Loading the invoice..." rows={1} rowClassName="h-16" />;
    }
    // The list may not know a brand-new invoice yet; the job's own state still says whether it is paid.
    const fallback = paymentStateOf({ canInvoice: false, invoiceId, paymentStatus: job.state === 'paid' ? 'paid' : null });
    return (
      <>
        {invoices.isError ? <LoadError className="mb-4" message="Failed to fetch your invoices" detail={errorMessage(invoices.error)} onRetry={() => void invoices.refetch()} retrying={invoices.isFetching} /> : null}
        <p className="flex flex-wrap items-center gap-2 text-slate-100">
          Invoice sent. <Badge tone={fallback.tone}>{fallback.label}</Badge>
        </p>
      </>
    );
  }

  const state = paymentStateOf({ canInvoice: false, invoiceId, paymentStatus: invoice.paymentStatus });
  const payout = payoutLabelOf(invoice);
  return (
    <section aria-labelledby="invoice-state-heading">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h3 id="invoice-state-heading" className="text-lg font-semibold text-white">
          Invoice #{invoice.invoiceNumber}
        </h3>
        {/* Polite, so the change to Paid is read out when it lands. */}
        <p aria-live="polite" className="text-sm">
          <span className="sr-only">Payment: </span>
          <Badge tone={state.tone} data-testid="invoice-payment-state">
            {state.label}
          </Badge>
        </p>
      </div>
      <dl className="mt-4 grid gap-3 text-sm tabular-nums sm:grid-cols-2">
        <Item label="Labour hours">{formatHours(invoice.laborHours)}</Item>
        <Item label="Materials">{formatMoney(invoice.materialsCost)}</Item>
        {invoice.rushFee > 0 ? <Item label="As-soon-as-possible fee">{formatMoney(invoice.rushFee)}</Item> : null}
        {invoice.transactionFee > 0 ? <Item label="Card processing (the customer's)">{formatMoney(invoice.transactionFee)}</Item> : null}
        <Item label="Total">{formatMoney(invoice.totalAmount)}</Item>
        <Item label={`Your share (after the ${invoice.feePercent}% fee)`}>{formatMoney(invoice.workerShare)}</Item>
        {payout ? <Item label="Payout">{payout}</Item> : null}
        {invoice.notes ? (
          <div className="sm:col-span-2">
            <dt className="text-slate-300">Notes</dt>
            <dd className="whitespace-pre-line text-slate-100">{invoice.notes}</dd>
          </div>
        ) : null}
      </dl>
    </section>
  );
}

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-slate-300">{label}</dt>
      <dd className="font-semibold text-white">{children}</dd>
    </div>
  );
}
