import { routeByName } from '../../shared/routes';
import type { TrackLookupResult } from '../../shared/schemas/job';
import { BOOKING_NOT_FOUND, trackLookupSchema } from '../../shared/schemas/tracking';
import { deviceCookies } from '../common/auth/device-cookies';
import { loginThrottle } from '../common/auth/throttle';
import { clientNetwork } from '../common/client-address';
import { existingCustomer } from '../common/auth/customer';
import { jobsRepo } from '../jobs/data/jobs';
import { NotFoundError } from '../common/errors';
import { http, reply } from '../common/http';

const SCOPE = 'track';

/**
 * /track by the number a screen showed and the phone it was made with. An 8-character number is
 * short enough to guess at, so every miss counts like a wrong password (per number and address,
 * per address, per number) and a wrong pair answers exactly as an unknown number.
 *
 * Those counters are shared with strangers, so the customer's own browser is kept out of them, as a
 * login's device is: the customer identity that made the job finds it without being counted, and a
 * browser that found it before presents the device cookie that lookup left, counted against that
 * cookie alone.
 */
export const handler = http(routeByName('find-tracked-request'), trackLookupSchema, async ({ body, event }) => {
  const number = body.number.toUpperCase();
  const customerId = await existingCustomer(event);
  // Read before counting only for a caller who may own it; whatever is not theirs is answered
  // after the counters, as for anyone else, so it tells them nothing sooner.
  const early = customerId ? await jobsRepo.findByNumber(number, body.phone) : undefined;
  if (early && early.customerId === customerId) return { id: early.id } satisfies TrackLookupResult;

  const device = await deviceCookies.presented(event, 'track', number);
  const attempt = await loginThrottle.begin(SCOPE, {
    account: number,
    address: clientNetwork(event),
    ...(device ? { device: device.id } : {}),
  });
  const job = customerId ? early : await jobsRepo.findByNumber(number, body.phone);
  if (!job) throw new NotFoundError(BOOKING_NOT_FOUND);
  await attempt.succeeded();
  if (device) await deviceCookies.end(device);
  const deviceCookie = await deviceCookies.issue('track', job.id, number);
  return reply(200, { id: job.id } satisfies TrackLookupResult, { cookies: [deviceCookie] });
});
