import { routeByName } from '../../shared/routes';
import { invoicesRepo } from './data/invoices';
import { NotFoundError } from '../common/errors';
import { http } from '../common/http';
import { mayRead } from './invoice-access';
import { toInvoiceView } from './invoice-views';

export const INVOICE_NOT_FOUND = 'Invoice not found';

/** One invoice, for its customer, its worker or the owner; anyone else gets the same 404 as a missing one. */
export const handler = http(routeByName('get-invoice'), async ({ params, caller }) => {
  const invoice = await invoicesRepo.findById(params.id);
  if (!invoice || !mayRead(caller, invoice)) throw new NotFoundError(INVOICE_NOT_FOUND);
  return toInvoiceView(invoice, caller.role);
});
