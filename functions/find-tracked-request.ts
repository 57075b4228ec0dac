import { routeByName } from '../shared/routes';
import type { TrackLookupResult } from '../shared/schemas/job';
import { BOOKING_NOT_FOUND, trackLookupSchema } from '../shared/schemas/tracking';
import { loginThrottle } from './lib/auth/throttle';
import { clientNetwork } from './lib/client-address';
import { jobsRepo } from './lib/data/jobs';
import { NotFoundError } from './lib/errors';
import { http } from './lib/http';

const SCOPE = 'track';

/**
 * /track by the number a screen showed and the phone it was made with. An 8-character number is
 * short enough to guess at, so every miss counts like a wrong password (per number and address,
 * per address, per number) and a wrong pair answers exactly as an unknown number.
 */
export const handler = http(routeByName('find-tracked-request'), trackLookupSchema, async ({ body, event }) => {
  const attempt = await loginThrottle.begin(SCOPE, { account: body.number.toUpperCase(), address: clientNetwork(event) });
  const job = await jobsRepo.findByNumber(body.number, body.phone);
  if (!job) throw new NotFoundError(BOOKING_NOT_FOUND);
  await attempt.succeeded();
  return { id: job.id } satisfies TrackLookupResult;
});
