import { categories, categorySlugs } from '../../shared/categories';
import { bandBetween, bandRank, bandUpperKm, type DistanceUnit } from '../../shared/domain/distance-bands';
import type { LatLng } from '../../shared/domain/geo';
import { routeByName } from '../../shared/routes';
import type { WorkerListingView } from '../../shared/schemas/job';
import { averageRating } from '../../shared/schemas/review-rules';
import { serviceAreaOf } from '../../shared/domain/service-areas';
import { takeAllowances } from '../common/auth/throttle';
import { clientNetwork } from '../common/client-address';
import { existingCustomer } from '../common/auth/customer';
import { dispatchIndex, isDispatchable } from '../jobs/data/dispatch-index';
import { serviceAddressesRepo } from '../bookings/data/service-addresses';
import { workersRepo, type WorkerItem } from './data/workers';
import { env } from '../common/env';
import { BadRequestError, TooManyRequestsError } from '../common/errors';
import { http } from '../common/http';
import { presignDownload } from '../common/storage';

/** Workers shown for one trade near the customer. */
const LISTING_LIMIT = 50;

/**
 * Calls per network address in 15 minutes, answered or refused: far more than a person pressing
 * Find and changing the filters needs (the page itself asks again every 5 minutes), few enough to
 * make harvesting who is on call, and when, slow work.
 */
export const LISTINGS_PER_WINDOW = 60;
const LISTING_WINDOW_SECONDS = 15 * 60;

/** Kilometres of slack when comparing a band's edge with `maxKm`: the client rounds to metres. */
const EDGE_SLACK_KM = 0.001;

const nameOf = new Map(categories.map((c) => [c.slug as string, c.name]));

/**
 * `maxKm`, the dashboard's "within" filter: only pros whose whole band lies within it. It needs a
 * saved service address, the only place distances are measured from.
 */
function withinKm(maxKm: number | undefined, origin: LatLng | null): number | null {
  if (maxKm === undefined) return null;
  if (!origin) throw new BadRequestError('Save your service address first: distances are measured from it.');
  return maxKm;
}

function toListing(worker: WorkerItem, origin: LatLng | null, unit: DistanceUnit, photoUrl: string | null): WorkerListingView {
  const at = worker.location ? { lat: worker.location.lat, lng: worker.location.lng } : null;
  // A pro holding a job is on their way to or at that customer's home: where they are is that
  // customer's to know alone, so the public gets no band for them at all.
  const available = !worker.activeJobId;
  return {
    id: worker.id,
    workerId: worker.id,
    fullName: worker.fullName,
    photoUrl,
    bio: null,
    yearsExperience: worker.yearsExp,
    specialties: worker.categories.map((c) => nameOf.get(c) ?? c),
    serviceAreas: [serviceAreaOf(worker.address)].filter((area): area is string => Boolean(area)),
    hourlyRate: worker.hourlyRate,
    isVerified: 'true',
    isAvailable: available ? 'true' : 'false',
    workerType: worker.workerType ?? 'independent',
    rating: averageRating(worker.ratingSum ?? 0, worker.ratingCount ?? 0),
    reviewCount: worker.ratingCount ?? 0,
    distanceBand: origin && at && available ? bandBetween(origin, at, unit) : null,
  };
}

function tooManyListings(retryAfterSeconds: number): TooManyRequestsError {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return new TooManyRequestsError(
    `Too many searches from your network in a short time. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    retryAfterSeconds,
  );
}

/**
 * Workers a customer can hire now: approved, verified, on call and clocked in (the dispatch index,
 * no Scan). No contact details: those are not public. How far each is comes only as a band from
 * the caller's saved service address (PUT /api/customer/service-address); a lat/lng in the query
 * is not read, so no caller can measure from a point of their choosing.
 */
export const handler = http(routeByName('list-worker-profiles'), async (input) => {
  const { event } = input;
  // Rationed before the query is read: calls refused for their query count too.
  await takeAllowances(
    'worker-list',
    [{ key: `address#${clientNetwork(event)}`, limit: LISTINGS_PER_WINDOW, windowSeconds: LISTING_WINDOW_SECONDS }],
    tooManyListings,
  );
  const { query } = input;
  const { category } = query;
  const customerId = await existingCustomer(event);
  const saved = customerId ? await serviceAddressesRepo.find(customerId) : undefined;
  const origin = saved ? { lat: saved.lat, lng: saved.lng } : null;
  const maxKm = withinKm(query.maxKm, origin);
  // One trade near the saved address: the nearest by the same rings as dispatch, however many
  // workers there are. Otherwise the first page of each trade's list.
  const candidates =
    category && origin
      ? await dispatchIndex.findNearest(category, origin, new Set(), LISTING_LIMIT, { includeBusy: true })
      : await dispatchIndex.listAvailable(category ? [category] : categorySlugs);
  const workers = (await workersRepo.findMany(candidates.map((c) => c.workerId))).filter(isDispatchable);
  const listings = await Promise.all(
    workers.map(async (w) => toListing(w, origin, env.DISTANCE_UNIT, w.profilePhotoKey ? (await presignDownload(w.profilePhotoKey, 600)).url : null)),
  );
  // Nearest band first, then by name: ordering by the exact distance inside a band would tell
  // what the band hides. Pros without a band (unmeasured, or on a job) follow, by name.
  const rank = (listing: WorkerListingView) => (listing.distanceBand ? bandRank(listing.distanceBand.id) : Number.POSITIVE_INFINITY);
  return listings
    .filter((listing) => maxKm === null || (listing.distanceBand !== null && bandUpperKm(listing.distanceBand) <= maxKm + EDGE_SLACK_KM))
    .sort((a, b) => rank(a) - rank(b) || a.fullName.localeCompare(b.fullName));
});
