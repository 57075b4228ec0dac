import { routeByName } from '../shared/routes';
import { invoicesRepo } from './lib/data/invoices';
import { http } from './lib/http';
import { toInvoiceView } from './lib/invoice-views';

/** The caller's invoices, newest first: a worker's own, the owner's all, a customer's own; nobody's none. */
export const handler = http(routeByName('list-invoices'), async ({ caller }) => {
  if (caller.role === 'anonymous') return [];
  const invoices =
    caller.role === 'worker'
      ? await invoicesRepo.listForWorker(caller.id)
      : caller.role === 'owner'
        ? await invoicesRepo.listAll()
        : await invoicesRepo.listForCustomer(caller.id);
  return invoices.map((i) => toInvoiceView(i, caller.role));
});
