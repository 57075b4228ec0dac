import { routeByName } from '../../shared/routes';
import { existingCustomer } from '../common/auth/customer';
import { serviceAddressesRepo, toServiceAddressView } from './data/service-addresses';
import { http } from '../common/http';

/** The caller's saved service address; a visitor without a customer identity has none (not a 401). */
export const handler = http(routeByName('get-service-address'), async ({ event }) => {
  const customerId = await existingCustomer(event);
  return toServiceAddressView(customerId ? await serviceAddressesRepo.find(customerId) : undefined);
});
