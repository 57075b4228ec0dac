import { useQuery } from '@tanstack/react-query';
import { FileText, ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { paymentListLabel } from '../../../../shared/domain/invoice';
import type { InvoiceView } from '../../../../shared/schemas/invoice';
import { InvoiceDialog } from '../../domain/invoices/invoice-dialog';
import { INVOICE_POLL_MS, canVerifyInvoice, paymentTone } from '../../domain/invoices/invoice-rules';
import { formatMoney } from '../../lib/money';
import { useVerifyInvoiceWork } from '../../domain/invoices/use-invoice-actions';
import { PageHeader } from '../../components/layout/page-header';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { useDocumentTitle } from '../../lib/use-document-title';
import { invoiceDate, listLoadProblem } from './invoice-list';
import { LoadError, Loading } from '../../components/ui/load-state';
import { queryKeys } from '../../lib/query-keys';

/**
 * /invoices: the caller's invoices, newest first: a customer's own (by the
 * cookie), or all of them for the owner. Polled every 5 s, so a payment shows without reloading.
 */
export default function InvoicesPage() {
  useDocumentTitle('Invoices');
  const invoices = useQuery<InvoiceView[]>({ queryKey: queryKeys.invoices, refetchInterval: INVOICE_POLL_MS });
  const [viewing, setViewing] = useState<string | null>(null);

  return (
    <div className="mx-auto max-w-6xl px-4 py-12">
      <PageHeader
        title="Invoices"
        subtitle="Verify the work and pay your professionals' invoices."
        icon={<FileText aria-hidden="true" className="size-10 text-amber-300" />}
      />
      {invoices.isError ? <LoadError className="mb-4" {...listLoadProblem(invoices.error)} onRetry={() => void invoices.refetch()} retrying={invoices.isFetching} /> : null}
      {invoices.isPending ? (
        <Card>
          <Loading label="Loading invoices..." rows={4} rowClassName="h-10 w-full" />
        </Card>
      ) : invoices.data?.length ? (
        <InvoiceTable invoices={invoices.data} onView={setViewing} />
      ) : invoices.isSuccess ? (
        <Card className="text-center">
          <h2 className="text-xl font-semibold text-white">No invoices found</h2>
          <p className="mt-2 text-slate-200">Workers create invoices after completing a job; yours show here once they do.</p>
        </Card>
      ) : null}
      {viewing ? <InvoiceDialog invoiceId={viewing} onClose={() => setViewing(null)} /> : null}
    </div>
  );
}

const cell = 'px-4 py-3 align-middle';

function InvoiceTable({ invoices, onView }: { invoices: readonly InvoiceView[]; onView: (id: string) => void }) {
  const verify = useVerifyInvoiceWork();
  return (
    <Card className="overflow-x-auto p-0">
      <table className="w-full min-w-[48rem] text-left text-sm">
        <caption className="sr-only">Invoices, newest first</caption>
        <thead className="border-b border-white/10 text-xs uppercase tracking-wide text-slate-300">
          <tr>
            <th scope="col" className={cell}>
              Invoice #
            </th>
            <th scope="col" className={cell}>
              Customer
            </th>
            <th scope="col" className={cell}>
              Service
            </th>
            <th scope="col" className={`${cell} text-right`}>
              Amount
            </th>
            <th scope="col" className={cell}>
              Date
            </th>
            <th scope="col" className={cell}>
              Status
            </th>
            <th scope="col" className={cell}>
              Actions
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-white/10">
          {invoices.map((invoice) => {
            const verifying = verify.isPending && verify.variables === invoice.id;
            return (
              <tr key={invoice.id}>
                <th scope="row" className={`${cell} font-mono font-semibold text-white`}>
                  {invoice.invoiceNumber}
                </th>
                <td className={cell}>{invoice.customerName}</td>
                <td className={cell}>{invoice.service}</td>
                <td className={`${cell} text-right tabular-nums`}>{formatMoney(invoice.totalAmount)}</td>
                <td className={cell}>
                  <time dateTime={invoice.createdAt}>{invoiceDate(invoice.createdAt)}</time>
                </td>
                <td className={cell}>
                  <Badge tone={paymentTone(invoice.paymentStatus)}>{paymentListLabel(invoice.paymentStatus)}</Badge>
                </td>
                <td className={cell}>
                  <div className="flex flex-wrap gap-2">
                    <Button size="sm" variant="outline" onClick={() => onView(invoice.id)}>
                      View
                    </Button>
                    {canVerifyInvoice(invoice) ? (
                      <Button size="sm" onClick={() => verify.mutate(invoice.id)} disabled={verifying} aria-busy={verifying}>
                        <ShieldCheck aria-hidden="true" className="size-4" />
                        Verify Work
                      </Button>
                    ) : null}
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </Card>
  );
}
