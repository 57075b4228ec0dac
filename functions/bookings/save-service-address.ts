import { routeByName } from '../../shared/routes';
import { SERVICE_ADDRESS_CHANGES_PER_DAY } from '../../shared/domain/service-areas';
import { serviceAddressSchema } from '../../shared/schemas/service-address';
import { takeAllowances, type Allowance } from '../common/auth/throttle';
import { clientNetwork } from '../common/client-address';
import { customerFor, existingCustomer } from '../common/auth/customer';
import { serviceAddressesRepo, toServiceAddressView } from './data/service-addresses';
import { TooManyRequestsError } from '../common/errors';
import { http, reply } from '../common/http';

const DAY_SECONDS = 24 * 60 * 60;
const SCOPE = 'service-address';

/**
 * Saves from one network address in a day, over every customer: saving may issue a new customer
 * identity (a new browser, or a cleared cookie), so the per-customer limit alone would be one
 * cookie deletion away from meaningless.
 */
export const SAVES_PER_NETWORK_PER_DAY = 20;

function waitText(seconds: number): string {
  if (seconds < 3600) {
    const minutes = Math.max(1, Math.ceil(seconds / 60));
    return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  }
  const hours = Math.ceil(seconds / 3600);
  return `${hours} hour${hours === 1 ? '' : 's'}`;
}

const perCustomer = (customerId: string): Allowance => ({
  key: `customer#${customerId}`,
  limit: SERVICE_ADDRESS_CHANGES_PER_DAY,
  windowSeconds: DAY_SECONDS,
});

function refuse(retryAfterSeconds: number, refused: Allowance): TooManyRequestsError {
  const wait = waitText(retryAfterSeconds);
  return new TooManyRequestsError(
    refused.key.startsWith('customer#')
      ? `You can change your service address ${SERVICE_ADDRESS_CHANGES_PER_DAY} times a day. Try again in ${wait}; until then distances are measured from the address you saved last.`
      : `Too many service addresses were saved from your network today. Try again in ${wait}.`,
    retryAfterSeconds,
  );
}

/**
 * The customer's service address, the one place the worker list measures its distance bands from.
 * Moving it is rationed (a few times a day per customer, and per network address): each move is
 * one more point to measure from, and enough of them would narrow a pro down again. Rewording the
 * address at the same position, or saving it again unchanged, moves nothing and costs nothing.
 *
 * A first-time visitor may save one before any booking: it issues their customer identity, as a
 * first request does, so a new customer sees how far pros are before hiring one.
 */
export const handler = http(routeByName('save-service-address'), serviceAddressSchema, async ({ body, event }) => {
  const at = { lat: body.latitude, lng: body.longitude };
  const known = await existingCustomer(event);
  const saved = known ? await serviceAddressesRepo.find(known) : undefined;
  const moves = !saved || saved.lat !== at.lat || saved.lng !== at.lng;
  if (moves) {
    // Counted before anything is written (a refused save issues no identity and keeps the old address).
    const network: Allowance = { key: `address#${clientNetwork(event)}`, limit: SAVES_PER_NETWORK_PER_DAY, windowSeconds: DAY_SECONDS };
    await takeAllowances(SCOPE, known ? [network, perCustomer(known)] : [network], refuse);
  }
  const customer = await customerFor(known);
  // A new identity's first save is its first of the day.
  if (!known) await takeAllowances(SCOPE, [perCustomer(customer.id)], refuse);
  const item = await serviceAddressesRepo.save(customer.id, body.address, at);
  return reply(200, toServiceAddressView(item), { cookies: customer.setCookie ? [customer.setCookie] : [] });
});
