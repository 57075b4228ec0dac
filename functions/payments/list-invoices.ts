import { routeByName } from '../../shared/routes';
import { INVOICE_PAGE_SIZE } from '../../shared/schemas/query';
import { invoicesRepo, type InvoiceItem } from './data/invoices';
import { http } from '../common/http';
import { toInvoiceView } from './invoice-views';

/**
 * The caller's invoices, newest first: a worker's own and a customer's own (whole: one person's
 * invoices stay few), the owner's every invoice a page at a time (`limit`, default
 * INVOICE_PAGE_SIZE, from just `after` an invoice id); nobody's none.
 */
export const handler = http(routeByName('list-invoices'), async ({ caller, query }) => {
  if (caller.role === 'anonymous') return [];
  let invoices: InvoiceItem[];
  if (caller.role === 'worker') invoices = await invoicesRepo.listForWorker(caller.id);
  else if (caller.role === 'customer') invoices = await invoicesRepo.listForCustomer(caller.id);
  else {
    const after = query.after === undefined ? undefined : await invoicesRepo.findById(query.after);
    // An `after` naming no invoice ends the list rather than starting it over.
    invoices = query.after !== undefined && !after ? [] : await invoicesRepo.pageOfAll(query.limit ?? INVOICE_PAGE_SIZE, after);
  }
  return invoices.map((i) => toInvoiceView(i, caller.role));
});
