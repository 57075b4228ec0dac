import { routeByName } from '../shared/routes';
import { invoicesRepo } from './lib/data/invoices';
import { http } from './lib/http';
import { invoiceReader } from './lib/invoice-access';
import { toInvoiceView } from './lib/invoice-views';

/** The caller's invoices, newest first: a worker's own, the owner's all, a customer's own; nobody's none. */
export const handler = http(routeByName('list-invoices'), async ({ event }) => {
  const reader = await invoiceReader(event);
  switch (reader.viewer) {
    case 'worker':
      return (await invoicesRepo.listForWorker(reader.workerId)).map((i) => toInvoiceView(i, 'worker'));
    case 'owner':
      return (await invoicesRepo.listAll()).map((i) => toInvoiceView(i, 'owner'));
    case 'customer':
      return (await invoicesRepo.listForCustomer(reader.customerId)).map((i) => toInvoiceView(i, 'customer'));
    default:
      return [];
  }
});
