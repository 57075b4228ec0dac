import { routeByName } from '../../shared/routes';
import { customersCrewBill, toCrewBillView } from './crew-bills';
import { NotFoundError } from '../common/errors';
import { http } from '../common/http';

/** A crew's one bill, for the request's own customer; 404 for a request of one pro or one not theirs. */
export const handler = http(routeByName('get-request-bill'), async ({ params, caller }) => {
  const bill = await customersCrewBill(params.id, caller.id);
  if (!bill) throw new NotFoundError('Request not found');
  return toCrewBillView(bill);
});
