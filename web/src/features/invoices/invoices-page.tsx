import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { FileText, ShieldCheck } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { paymentListLabel } from '../../../../shared/domain/invoice';
import type { InvoiceView } from '../../../../shared/schemas/invoice';
import { INVOICE_PAGE_SIZE } from '../../../../shared/schemas/query';
import { InvoiceDialog } from '../../domain/invoices/invoice-dialog';
import { INVOICE_POLL_MS, canVerifyInvoice, paymentTone } from '../../domain/invoices/invoice-rules';
import { formatMoney } from '../../lib/money';
import { useVerifyInvoiceWork } from '../../domain/invoices/use-invoice-actions';
import { PageHeader } from '../../components/layout/page-header';
import { Badge } from '../../components/ui/badge';
import { Button, buttonClasses } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { useDocumentTitle } from '../../lib/use-document-title';
import { invoiceAudience, invoiceDate, invoicePageText, listLoadProblem, nextInvoicePage, type InvoiceAudience } from './invoice-list';
import { LoadError, Loading } from '../../components/ui/load-state';
import { queryKeys } from '../../lib/query-keys';
import { api, apiGetKey } from '../../lib/api';
import type { AdminStatus } from '../../lib/admin-status';
import { paths } from '../../lib/paths';
import { useSignedInWorker, type SignedInWorker } from '../../lib/worker-token';

/**
 * /invoices: the caller's invoices, newest first, in the words of whoever reads them: a signed-in
 * pro's own (sent with their token, which the server reads before any cookie), every invoice for the
 * owner (a page at a time), or a customer's own (by the cookie). Polled every 5 s, so a payment shows
 * without reloading.
 */
export default function InvoicesPage() {
  const worker = useSignedInWorker();
  const status = useQuery<AdminStatus>({ queryKey: queryKeys.adminStatus, enabled: !worker });
  const audience = invoiceAudience(Boolean(worker), status.data?.isAdmin === true);
  const text = invoicePageText(audience);
  useDocumentTitle(text.title);
  const [viewing, setViewing] = useState<string | null>(null);

  return (
    <div className="mx-auto max-w-6xl px-4 py-12">
      <PageHeader title={text.title} subtitle={text.subtitle} icon={<FileText aria-hidden="true" className="size-10 text-amber-300" />} />
      {!worker && status.isPending ? (
        <ListLoading />
      ) : worker ? (
        <ProInvoices worker={worker} text={text} />
      ) : audience === 'owner' ? (
        <OwnerInvoices text={text} onView={setViewing} />
      ) : (
        <CustomerInvoices text={text} onView={setViewing} />
      )}
      {viewing ? <InvoiceDialog invoiceId={viewing} onClose={() => setViewing(null)} /> : null}
    </div>
  );
}

function ListLoading() {
  return (
    <Card>
      <Loading label="Loading invoices..." rows={4} rowClassName="h-10 w-full" />
    </Card>
  );
}

function Empty({ text }: { text: { emptyTitle: string; emptyText: string } }) {
  return (
    <Card className="text-center">
      <h2 className="text-xl font-semibold text-white">{text.emptyTitle}</h2>
      <p className="mt-2 text-slate-200">{text.emptyText}</p>
    </Card>
  );
}

interface ListState {
  data: readonly InvoiceView[] | undefined;
  isPending: boolean;
  isError: boolean;
  isFetching: boolean;
  error: unknown;
  refetch: () => unknown;
}

/** Loading, the failure with a retry, the table, or the reader's own empty state. */
function InvoiceList({ list, text, table }: { list: ListState; text: { emptyTitle: string; emptyText: string }; table: (invoices: readonly InvoiceView[]) => ReactNode }) {
  return (
    <>
      {list.isError ? <LoadError className="mb-4" {...listLoadProblem(list.error)} onRetry={() => void list.refetch()} retrying={list.isFetching} /> : null}
      {list.isPending ? <ListLoading /> : list.data?.length ? table(list.data) : list.data ? <Empty text={text} /> : null}
    </>
  );
}

function CustomerInvoices({ text, onView }: { text: { emptyTitle: string; emptyText: string }; onView: (id: string) => void }) {
  const invoices = useQuery<InvoiceView[]>({ queryKey: queryKeys.invoices, refetchInterval: INVOICE_POLL_MS });
  return <InvoiceList list={invoices} text={text} table={(data) => <InvoiceTable invoices={data} onView={onView} audience="customer" />} />;
}

/** The pro's own list, under the key the worker's job screens refresh when they send an invoice. */
function ProInvoices({ worker, text }: { worker: SignedInWorker; text: { emptyTitle: string; emptyText: string } }) {
  const key = queryKeys.workerInvoices(worker.id);
  const invoices = useQuery<InvoiceView[]>({
    queryKey: key,
    queryFn: ({ signal }) => apiGetKey(key, { token: worker.token, signal }),
    refetchInterval: INVOICE_POLL_MS,
  });
  return <InvoiceList list={invoices} text={text} table={(data) => <InvoiceTable invoices={data} audience="pro" />} />;
}

/** Every invoice, a page at a time: the server never reads them all in one call. */
function OwnerInvoices({ text, onView }: { text: { emptyTitle: string; emptyText: string }; onView: (id: string) => void }) {
  const pages = useInfiniteQuery({
    queryKey: queryKeys.ownerInvoices,
    queryFn: ({ pageParam, signal }) => api('GET /api/invoices', { query: { limit: INVOICE_PAGE_SIZE, after: pageParam }, signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => nextInvoicePage(last, INVOICE_PAGE_SIZE),
  });
  const list: ListState = { ...pages, data: pages.data?.pages.flat() };
  return (
    <InvoiceList
      list={list}
      text={text}
      table={(data) => (
        <>
          <InvoiceTable invoices={data} onView={onView} audience="owner" />
          {pages.hasNextPage ? (
            <div className="mt-4 flex justify-center">
              <Button variant="outline" onClick={() => void pages.fetchNextPage()} disabled={pages.isFetchingNextPage} aria-busy={pages.isFetchingNextPage}>
                {pages.isFetchingNextPage ? 'Loading…' : 'Show older invoices'}
              </Button>
            </div>
          ) : null}
        </>
      )}
    />
  );
}

const cell = 'px-4 py-3 align-middle';

function InvoiceTable({ invoices, onView, audience }: { invoices: readonly InvoiceView[]; onView?: (id: string) => void; audience: InvoiceAudience }) {
  const verify = useVerifyInvoiceWork();
  const head = (label: string, right = false) => (
    <th scope="col" className={right ? `${cell} text-right` : cell}>
      {label}
    </th>
  );
  return (
    <Card className="overflow-x-auto p-0">
      <table className="w-full min-w-[48rem] text-left text-sm">
        <caption className="sr-only">Invoices, newest first</caption>
        <thead className="border-b border-white/10 text-xs uppercase tracking-wide text-slate-300">
          <tr>
            {head('Invoice #')}
            {audience === 'owner' ? head('Pro') : null}
            {head('Customer')}
            {head('Service')}
            {head('Amount', true)}
            {audience === 'pro' ? head('Your share', true) : audience === 'owner' ? head('Platform fee', true) : null}
            {head('Date')}
            {head('Status')}
            {head('Actions')}
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
                {audience === 'owner' ? <td className={cell}>{invoice.workerName}</td> : null}
                <td className={cell}>{invoice.customerName}</td>
                <td className={cell}>{invoice.service}</td>
                <td className={`${cell} text-right tabular-nums`}>{formatMoney(invoice.totalAmount)}</td>
                {audience === 'pro' ? (
                  <td className={`${cell} text-right font-semibold tabular-nums text-white`}>{formatMoney(invoice.workerShare)}</td>
                ) : audience === 'owner' ? (
                  <td className={`${cell} text-right tabular-nums`}>
                    {formatMoney(invoice.platformFee)} <span className="text-slate-300">({invoice.feePercent}%)</span>
                  </td>
                ) : null}
                <td className={cell}>
                  <time dateTime={invoice.createdAt}>{invoiceDate(invoice.createdAt)}</time>
                </td>
                <td className={cell}>
                  <Badge tone={paymentTone(invoice.paymentStatus)}>{paymentListLabel(invoice.paymentStatus)}</Badge>
                </td>
                <td className={cell}>
                  <div className="flex flex-wrap gap-2">
                    {audience === 'pro' ? (
                      // The pro's job screen already shows the invoice with their share and payout.
                      <Link to={paths.workerJob(invoice.serviceRequestId)} className={buttonClasses('outline', 'sm')}>
                        Open job
                      </Link>
                    ) : (
                      <Button size="sm" variant="outline" onClick={() => onView?.(invoice.id)}>
                        View
                      </Button>
                    )}
                    {audience === 'customer' && canVerifyInvoice(invoice) ? (
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
