import { isCategorySlug, type CategorySlug } from '../../shared/categories';
import { estimateJob, medianRate, requestedTimeProblem, type JobEstimate } from '../../shared/domain/estimate';
import type { LatLng } from '../../shared/domain/geo';
import type { JobSize } from '../../shared/job-sizes';
import { dispatchIndex } from '../jobs/data/dispatch-index';
import { workersRepo, type WorkerItem } from '../workers/data/workers';
import { env } from '../common/env';
import { BadRequestError } from '../common/errors';

/**
 * How many of the nearest available pros the rate is the median of: the ones dispatch would offer
 * the job to first, and a bound on the reads an estimate costs (a few index Queries and one
 * BatchGet of this many profiles).
 */
export const ESTIMATE_SAMPLE = 5;

/** The configured figures every estimate uses. */
export function estimateRates() {
  return {
    feePercent: env.PLATFORM_FEE_PERCENT,
    rushFeeCents: env.RUSH_FEE_CENTS,
    cardFeePercent: env.CARD_FEE_PERCENT,
    cardFeeFixedCents: env.CARD_FEE_FIXED_CENTS,
  };
}

/** The requested time as stored (null = as soon as possible), or 400 saying what to choose. */
export function checkedRequestedTime(requestedTime: string | null | undefined, nowMs = Date.now()): string | null {
  if (requestedTime === undefined || requestedTime === null || requestedTime === '') return null;
  const problem = requestedTimeProblem(requestedTime, nowMs);
  if (problem) throw new BadRequestError(problem);
  return new Date(Date.parse(requestedTime)).toISOString();
}

/** Where a form's coordinates put the job, or null for none (the forms send 0/0 when the browser gave no fix). */
export function originOf(latitude: number | null | undefined, longitude: number | null | undefined): LatLng | null {
  if (typeof latitude !== 'number' || typeof longitude !== 'number' || (latitude === 0 && longitude === 0)) return null;
  return { lat: latitude, lng: longitude };
}

/** The median rate of the nearest pros of the trade free to take it now, or null when there are none. */
export async function nearbyRate(category: CategorySlug, origin: LatLng | null): Promise<number | null> {
  const found = await dispatchIndex.findNearest(category, origin, new Set(), ESTIMATE_SAMPLE);
  const workers = await workersRepo.findMany(found.map((c) => c.workerId));
  return medianRate(workers.map((w) => w.hourlyRate));
}

/**
 * The estimate the server stores on a new job: at the hired pro's rate, or the nearby pros' median;
 * null when no pro's rate is known (the job is still sent; dispatch tells the customer if nobody comes).
 */
export async function estimateForJob(input: {
  category: string;
  size: JobSize;
  origin: LatLng | null;
  requestedTime: string | null;
  hired?: Pick<WorkerItem, 'hourlyRate'>;
  /** Pros asked for (a crew's estimate prices them all); 1 when absent. */
  workerCount?: number;
}): Promise<JobEstimate | null> {
  // A stored profile may still list a trade the catalogue no longer has: no typical hours for it.
  if (!isCategorySlug(input.category)) return null;
  const rate = input.hired ? input.hired.hourlyRate : await nearbyRate(input.category, input.origin);
  if (rate === null) return null;
  return estimateJob(
    { category: input.category, size: input.size, hourlyRateCents: rate, asap: input.requestedTime === null, workerCount: input.workerCount },
    estimateRates(),
  );
}
