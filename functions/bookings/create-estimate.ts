import { categories, isCategorySlug, type CategorySlug } from '../../shared/categories';
import { estimateJob } from '../../shared/domain/estimate';
import { routeByName } from '../../shared/routes';
import { estimateInputSchema, type EstimateResult } from '../../shared/schemas/estimate';
import { takeAllowances } from '../common/auth/throttle';
import { clientNetwork } from '../common/client-address';
import { workersRepo } from '../workers/data/workers';
import { NotFoundError, TooManyRequestsError } from '../common/errors';
import { checkedRequestedTime, estimateRates, nearbyRate } from './estimates';
import { http } from '../common/http';

/**
 * Estimates per network address in 15 minutes: the forms ask again as the customer changes trade,
 * size or time (debounced), so a person needs tens; a script harvesting pros' rates gets few.
 */
export const ESTIMATES_PER_WINDOW = 120;
const ESTIMATE_WINDOW_SECONDS = 15 * 60;

function tooManyEstimates(retryAfterSeconds: number): TooManyRequestsError {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return new TooManyRequestsError(
    `Too many price checks from your network in a short time. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    retryAfterSeconds,
  );
}

/**
 * What a job would cost before it is sent: the same arithmetic the request, booking and hire
 * store on the job (functions/bookings/estimates.ts), at the hired pro's rate or the nearest free pros'.
 */
export const handler = http(routeByName('create-estimate'), estimateInputSchema, async ({ body, event }) => {
  await takeAllowances(
    'estimate',
    [{ key: `address#${clientNetwork(event)}`, limit: ESTIMATES_PER_WINDOW, windowSeconds: ESTIMATE_WINDOW_SECONDS }],
    tooManyEstimates,
  );
  const requestedTime = checkedRequestedTime(body.requestedTime);
  let category = body.category as CategorySlug;
  let rate: number | null;
  if (body.workerId) {
    const worker = await workersRepo.findById(body.workerId);
    if (!worker || worker.status !== 'active' || !worker.isVerified) {
      throw new NotFoundError('This professional is not available for hire. Choose another from the list.');
    }
    // As the hire itself files it: in the hired pro's trade when the one chosen is not theirs.
    const own = worker.categories.find(isCategorySlug);
    if (!worker.categories.includes(category) && own) category = own;
    rate = worker.hourlyRate;
  } else {
    rate = await nearbyRate(category, body.location ?? null);
  }
  const trade = categories.find((c) => c.slug === category)?.name ?? category;
  const rates = estimateRates();
  // Nobody free nearby is a moment of the marketplace, not a wrong request: the form says so and
  // the request can still be sent (it is offered as pros come on call), so this is an answer, not a 404.
  if (rate === null) {
    const unavailable = `No ${trade.toLowerCase()} pro is free near you right now to price this by. You can still send the request: we offer it as pros come on call.`;
    return { estimate: null, unavailable, feePercent: rates.feePercent, requestedTime } satisfies EstimateResult;
  }
  // A hire is one pro: the estimate prices a crew only for a request to the nearest pros.
  const workerCount = body.workerId ? 1 : (body.workerCount ?? 1);
  const estimate = estimateJob({ category, size: body.size, hourlyRateCents: rate, asap: requestedTime === null, workerCount }, rates);
  return { estimate: { ...estimate, workerCount }, unavailable: null, feePercent: rates.feePercent, requestedTime } satisfies EstimateResult;
});
