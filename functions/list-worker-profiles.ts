import { categories, categorySlugs, isCategorySlug } from '../shared/categories';
import { distanceKm, etaMinutes, isValidLatLng, type LatLng } from '../shared/domain/geo';
import { routeByName } from '../shared/routes';
import type { WorkerListingView } from '../shared/schemas/job';
import { averageRating } from '../shared/schemas/review-rules';
import { serviceAreaOf } from '../shared/domain/service-areas';
import { dispatchIndex, isDispatchable } from './lib/data/dispatch-index';
import { workersRepo, type WorkerItem } from './lib/data/workers';
import { BadRequestError } from './lib/errors';
import { http } from './lib/http';
import { presignDownload } from './lib/storage';

/** Workers shown for one trade near the customer. */
const LISTING_LIMIT = 50;

const nameOf = new Map(categories.map((c) => [c.slug as string, c.name]));

function parseOrigin(query: Record<string, string>): LatLng | null {
  if (query.lat === undefined && query.lng === undefined) return null;
  const point = { lat: Number(query.lat), lng: Number(query.lng) };
  if (query.lat === '' || query.lng === '' || !isValidLatLng(point)) {
    throw new BadRequestError('lat and lng must be given together, as a latitude (-90 to 90) and a longitude (-180 to 180).');
  }
  return point;
}

/** `maxKm`: only pros within this distance of lat/lng (the dashboard's "within" filter). */
function parseMaxKm(query: Record<string, string>, origin: LatLng | null): number | null {
  if (query.maxKm === undefined || query.maxKm === '') return null;
  const km = Number(query.maxKm);
  if (!Number.isFinite(km) || km <= 0 || km > 1000) throw new BadRequestError('maxKm must be a distance in kilometres, more than 0 and at most 1000.');
  if (!origin) throw new BadRequestError('maxKm needs lat and lng: the place to measure the distance from.');
  return km;
}

function toListing(worker: WorkerItem, origin: LatLng | null, photoUrl: string | null): WorkerListingView {
  const at = worker.location ? { lat: worker.location.lat, lng: worker.location.lng } : null;
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
    isAvailable: worker.activeJobId ? 'false' : 'true',
    workerType: worker.workerType ?? 'independent',
    rating: averageRating(worker.ratingSum ?? 0, worker.ratingCount ?? 0),
    reviewCount: worker.ratingCount ?? 0,
    distanceKm: origin && at ? Math.round(distanceKm(origin, at) * 10) / 10 : null,
    etaMinutes: origin && at ? etaMinutes(at, origin) : null,
  };
}

/**
 * Workers a customer can hire now: approved, verified, on call and clocked in (the dispatch index,
 * no Scan), nearest first when the caller says where they are. No contact details: those are not public.
 */
export const handler = http(routeByName('list-worker-profiles'), async ({ query }) => {
  const category = query.category || undefined;
  if (category !== undefined && !isCategorySlug(category)) {
    throw new BadRequestError(`category must be one of: ${categorySlugs.join(', ')}.`);
  }
  const origin = parseOrigin(query);
  const maxKm = parseMaxKm(query, origin);
  // One trade near a known place: the nearest by the same rings as dispatch, however many workers
  // there are. Otherwise the first page of each trade's list, ordered by distance below.
  const candidates =
    category && origin
      ? await dispatchIndex.findNearest(category, origin, new Set(), LISTING_LIMIT, { includeBusy: true })
      : await dispatchIndex.listAvailable(category ? [category] : categorySlugs);
  const workers = (await workersRepo.findMany(candidates.map((c) => c.workerId))).filter(isDispatchable);
  const listings = await Promise.all(
    workers.map(async (w) => toListing(w, origin, w.profilePhotoKey ? (await presignDownload(w.profilePhotoKey, 600)).url : null)),
  );
  const far = Number.POSITIVE_INFINITY;
  return listings
    .filter((listing) => maxKm === null || (listing.distanceKm !== null && listing.distanceKm <= maxKm))
    .sort((a, b) => (a.distanceKm ?? far) - (b.distanceKm ?? far) || a.fullName.localeCompare(b.fullName));
});
