import { routeByName } from '../../shared/routes';
import type { CheckoutSessionResult } from '../../shared/schemas/invoice';
import { customersCrewBill, type CrewBillStatus } from './crew-bills';
import { ConflictError, NotFoundError } from '../common/errors';
import { http } from '../common/http';
import { logger } from '../common/logger';
import { checkoutForBill } from './payments';
import { siteOrigin } from '../common/site-origin';
import { orUnavailable } from '../common/transient';

/** Why a bill in this state cannot be paid now; null when it can (to pay, or again after a failed payment). */
function refusal(status: CrewBillStatus): string | null {
  switch (status) {
    case 'awaiting':
      return 'Some of your pros have not sent their invoices yet. You can pay the bill once they have.';
    case 'to_verify':
      return 'Verify the bill before paying.';
    case 'processing':
      return 'A payment for this bill is being processed. Check back shortly.';
    case 'paid':
      return 'This bill is already paid.';
    default:
      return null;
  }
}

/**
 * Pay a crew's bill by one Stripe Checkout session: a line per pro plus the card fee of the one
 * charge. The amounts are the invoices'; nothing the browser sends is used to charge. Its open
 * session is handed back rather than a second one made.
 */
export const handler = http(routeByName('create-bill-checkout'), async ({ params, caller, event }) => {
  const bill = await customersCrewBill(params.id, caller.id);
  if (!bill) throw new NotFoundError('Request not found');
  const refused = refusal(bill.status);
  if (refused) throw new ConflictError(refused);

  const target = await orUnavailable('Card payments cannot be reached right now; your bill has not changed.', () => checkoutForBill(bill, siteOrigin(event)));
  if (target === 'complete') throw new ConflictError('This bill has just been paid. It will show as Paid in a moment.');
  logger.info('Checkout session ready', { requestId: bill.lead.id, sessionId: target.sessionId, lines: bill.lines.length });
  return { success: true, url: target.url, sessionId: target.sessionId, message: 'Redirecting to secure checkout' } satisfies CheckoutSessionResult;
});
