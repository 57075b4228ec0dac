import { routeByName } from '../../shared/routes';
import { crewBillOf, customersCrewBill, toCrewBillView } from './crew-bills';
import { invoicesRepo } from './data/invoices';
import { ConflictError, NotFoundError } from '../common/errors';
import { http } from '../common/http';
import { logger } from '../common/logger';

/**
 * The customer checks a crew's bill once, for every pro: each line's invoice is verified (each its
 * own conditional write, so a double click or a retry verifies each once and answers the bill as
 * it is). Not while a pro who worked has still to invoice.
 */
export const handler = http(routeByName('verify-request-bill'), async ({ params, caller }) => {
  const bill = await customersCrewBill(params.id, caller.id);
  if (!bill) throw new NotFoundError('Request not found');
  if (bill.status === 'awaiting') throw new ConflictError('Some of your pros have not sent their invoices yet. You can verify the bill once they have.');
  const now = new Date().toISOString();
  const verified = await Promise.all(bill.lines.filter((l) => !l.workVerified).map((l) => invoicesRepo.markWorkVerified(l.id, caller.id, now)));
  if (verified.some(Boolean)) logger.info('Crew bill verified', { requestId: bill.lead.id, lines: bill.lines.length });
  return toCrewBillView(await crewBillOf(bill.lead));
});
