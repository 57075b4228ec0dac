import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Send } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { createPortal } from 'react-dom';
import type { CreateInvoiceInput, InvoiceView } from '../../../../shared/schemas/invoice';
import type { WorkerJobView } from '../../../../shared/schemas/job';
import { Field } from '../../components/ui/field';
import { Button } from '../../components/ui/button';
import { ModalDialog } from '../../components/ui/modal-dialog';
import { toast } from '../../components/ui/toast-store';
import { ApiError, errorMessage } from '../../lib/api';
import { useFormErrors } from '../../lib/use-form-errors';
import { INVOICE_NOTES_MAX, initialInvoiceValues, invoiceFieldOrder, invoicePreview, placeInvoiceFields, validateInvoice, type InvoiceFormValues } from './invoice-form';
import { serviceLabel } from './job-display';
import { workerCall } from './worker-api';
import { formatHourlyRate, formatMoney } from '../../lib/money';
import { FormAlert } from '../../components/ui/form-alert';
import { queryKeys } from '../../lib/query-keys';

/**
 * The worker's invoice of approved work: hours (prefilled from the clock), the job's agreed rate
 * (not theirs to change), materials and notes, with the total and split as the server will
 * compute them. Rendered into <body> so the job page's live regions stay out of it.
 */
export function InvoiceDialog({ job, workerId, feePercent, onClose }: { job: WorkerJobView; workerId: string; feePercent: number | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const id = useId();
  const [values, setValues] = useState<InvoiceFormValues>(() => initialInvoiceValues(job.totalHours));
  const { errors, show, clear, refFor } = useFormErrors(invoiceFieldOrder);

  const send = useMutation({
    mutationFn: (input: CreateInvoiceInput) => workerCall('POST /api/jobs/{id}/invoice', { params: { id: job.id }, body: input }),
    onSuccess: (invoice) => {
      // The page swaps the button for the invoice's state at once rather than at the next poll.
      queryClient.setQueryData<WorkerJobView>(queryKeys.job(job.id), (current) => (current ? { ...current, canInvoice: false, invoiceId: invoice.id } : current));
      queryClient.setQueryData<InvoiceView[]>(queryKeys.workerInvoices(workerId), (list) => (list ? [...list.filter((i) => i.id !== invoice.id), invoice] : list));
      void queryClient.invalidateQueries({ queryKey: queryKeys.job(job.id) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.completedJobs(workerId) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.workerInvoices(workerId) });
      toast({ title: 'Invoice sent', description: `Invoice #${invoice.invoiceNumber} for ${formatMoney(invoice.totalAmount)} is with ${job.customerName}.` });
      onClose();
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 400) show(placeInvoiceFields(error.fields));
      else if (error instanceof ApiError && error.status === 409) {
        // Not approved after all (reopened) or invoiced already, perhaps in another tab: the page catches up.
        show({ _: errorMessage(error) ?? 'This job cannot be invoiced right now.' });
        void queryClient.invalidateQueries({ queryKey: queryKeys.job(job.id) });
      }
      toast({ title: 'Failed to send invoice', description: errorMessage(error) ?? 'Please try again.', variant: 'destructive' });
    },
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (send.isPending) return;
    const result = validateInvoice(values);
    if (!result.ok) return show(result.errors);
    clear();
    send.mutate(result.input);
  };

  const set = (field: keyof InvoiceFormValues) => (value: string) => setValues((v) => ({ ...v, [field]: value }));
  const preview = invoicePreview(values, job.hourlyRate, feePercent ?? 0, job.rushFee);
  const sending = send.isPending;
  const money = (cents: number | undefined) => (cents === undefined ? '—' : formatMoney(cents));

  return createPortal(
    <ModalDialog title="Create Invoice" description={`${serviceLabel(job)} for ${job.customerName}. The customer pays it by card.`} onClose={onClose}>
      <form noValidate onSubmit={onSubmit} className="grid gap-5" aria-busy={sending}>
        <p role="status" className="sr-only">
          {sending ? 'Sending your invoice...' : ''}
        </p>
        <FormAlert message={errors._} />
        <div className="grid gap-5 sm:grid-cols-2">
          <Field id={`${id}-hours`} label="Labour hours" hint="One decimal, e.g. 2.5" error={errors.laborHours}>
            <input
              ref={refFor('laborHours')}
              type="number"
              inputMode="decimal"
              min={0.1}
              max={168}
              step={0.1}
              required
              value={values.laborHours}
              onChange={(e) => set('laborHours')(e.target.value)}
            />
          </Field>
          {/* Read-only, not disabled: it stays in the tab order and is read out with the form. */}
          <Field id={`${id}-rate`} label="Hourly rate" hint="Agreed for this job">
            <input type="text" readOnly value={formatHourlyRate(job.hourlyRate)} className="read-only:cursor-default read-only:bg-slate-200" />
          </Field>
        </div>
        <Field id={`${id}-materials`} label="Materials ($)" hint="Parts and supplies; leave empty if none." error={errors.materialsCost}>
          <input
            ref={refFor('materialsCost')}
            type="number"
            inputMode="decimal"
            min={0}
            step={0.01}
            placeholder="0.00"
            value={values.materialsCost}
            onChange={(e) => set('materialsCost')(e.target.value)}
          />
        </Field>
        <Field id={`${id}-notes`} label="Notes" hint={`Optional: the work done, parts used. Up to ${INVOICE_NOTES_MAX} characters.`} error={errors.notes}>
          <textarea ref={refFor('notes')} rows={3} maxLength={INVOICE_NOTES_MAX} value={values.notes} onChange={(e) => set('notes')(e.target.value)} />
        </Field>

        <section aria-labelledby={`${id}-total`} className="rounded-xl bg-slate-800/80 p-4">
          <h3 id={`${id}-total`} className="text-sm font-semibold uppercase tracking-wide text-slate-300">
            Invoice total
          </h3>
          <dl className="mt-3 grid gap-2 text-sm tabular-nums">
            <PreviewLine label="Labour" value={money(preview?.laborCents)} />
            {job.rushFee > 0 ? <PreviewLine label="As-soon-as-possible fee" value={money(preview?.rushCents)} /> : null}
            <PreviewLine label="Materials" value={money(preview?.materialsCents)} />
            <PreviewLine label="Work total" value={money(preview?.subtotalCents)} strong />
            {feePercent === null ? null : (
              <>
                <PreviewLine label={`Platform fee (${feePercent}%)`} value={money(preview?.platformFeeCents)} />
                <PreviewLine label="Your share" value={money(preview?.workerShareCents)} strong />
              </>
            )}
          </dl>
          {feePercent === null ? <p className="mt-2 text-sm text-slate-300">Your share shows once the current fee rate is loaded.</p> : null}
          {job.workerCount > 1 ? null : (
            <p className="mt-2 text-sm text-slate-300">The customer also pays the card processing fee on top; it goes to the card processor.</p>
          )}
        </section>

        <div className="flex flex-wrap justify-end gap-3 pt-1">
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={sending}>
            <Send aria-hidden="true" className="size-4" />
            Send Invoice
          </Button>
        </div>
      </form>
    </ModalDialog>,
    document.body,
  );
}

function PreviewLine({ label, value, strong }: { label: string; value: string; strong?: boolean }) {
  return (
    <div className={strong ? 'flex justify-between gap-4 font-semibold text-white' : 'flex justify-between gap-4 text-slate-200'}>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}
