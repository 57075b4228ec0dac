import { routeByName } from '../../shared/routes';
import { invoicesRepo } from './data/invoices';
import { ConflictError, NotFoundError } from '../common/errors';
import { http } from '../common/http';
import { toInvoiceView } from './invoice-views';
import { logger } from '../common/logger';

/** Verify Work: the customer accepts the invoice's work and charges, which payment needs. */
export const handler = http(routeByName('verify-work'), async ({ params, caller }) => {
  const found = await invoicesRepo.findById(params.id);
  if (!found || found.customerId !== caller.id) throw new NotFoundError('Invoice not found');
  if (found.crewRequestId) throw new ConflictError("This invoice is part of your crew's bill. Verify the bill on the request's page.");
  // Verifying twice (a double click, a retry) answers with the invoice as it is: verified once.
  const invoice = (await invoicesRepo.markWorkVerified(found.id, caller.id, new Date().toISOString())) ?? (await invoicesRepo.findById(found.id));
  if (!invoice) throw new NotFoundError('Invoice not found');
  logger.info('Invoice verified', { invoiceId: found.id });
  return toInvoiceView(invoice, 'customer');
});
