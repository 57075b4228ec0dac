import type { CategorySlug } from '../categories';
import type { RequestService, RequestStatus } from './requests';
import type { JobState } from './booking-status';
import { distanceKm, type LatLng } from './geo';

/**
 * Dispatch rules that the server and the screens share. The figures are
 * defaults; the functions read overrides from their environment (functions/common/env.ts).
 */
export const dispatchDefaults = {
  /** Offers outstanding at once. */
  offersAtOnce: 3,
  /** How long a worker has to accept an offer. */
  offerSeconds: 120,
  /** Workers offered in all before the customer is told no worker is available (3 rounds of 3). */
  maxOffers: 9,
  /** Time from accepting to arriving: 45 minutes. */
  arrivalGraceSeconds: 45 * 60,
  /** Strikes that count (not voided) at which a pro is suspended until the owner decides. */
  strikesToSuspend: 2,
} as const;

/** Geohash precisions: the index partitions workers by the coarse cell and sorts them by the fine one. */
export const DISPATCH_PARTITION_PRECISION = 4;
export const DISPATCH_SORT_PRECISION = 9;
/** Searched finest first; each ring is a cell and its eight neighbours (~1.2 km, ~5 km, ~40 km cells). */
export const DISPATCH_SEARCH_PRECISIONS = [6, 5, 4] as const;

/**
 * The request form's services mapped onto the six worker categories. Services without a trade of
 * their own go to the handymen, who take general repairs; insurance repairs go to construction.
 */
const categoryByService: Record<RequestService, CategorySlug> = {
  'Insurance Claims': 'construction',
  'Contract Workers': 'handyman',
  Plumbing: 'plumbing',
  Electrical: 'electrical',
  Carpentry: 'construction',
  Painting: 'painting',
  Cleaning: 'cleaning',
  'Pool Repair/Cleaner': 'cleaning',
  'Landscaping Repair/Landscapers': 'handyman',
  'Appliance Repair': 'electrical',
  Gardening: 'handyman',
  Other: 'handyman',
};

export function categoryForService(service: RequestService): CategorySlug {
  return categoryByService[service];
}

/** A service request is Pending until accepted, then In Progress, then Completed. */
export function requestStatusOf(state: JobState): RequestStatus {
  switch (state) {
    case 'booked':
    case 'offered':
    case 'cancelled':
      return 'Pending';
    case 'accepted':
    case 'en_route':
    case 'arrived':
    case 'in_progress':
      return 'In Progress';
    default:
      return 'Completed';
  }
}

export interface Candidate {
  workerId: string;
  /** Null for a worker who has not shared a location: ranked after every located one. */
  location: LatLng | null;
}

/**
 * The next workers to offer a job to: not yet tried, nearest first (unlocated last, in the order
 * given), at most `count`. Without a job location, the order given is kept.
 */
export function nearestUntried(
  origin: LatLng | null,
  candidates: readonly Candidate[],
  tried: ReadonlySet<string>,
  count: number,
): Candidate[] {
  const seen = new Set<string>();
  const fresh = candidates.filter((c) => {
    if (tried.has(c.workerId) || seen.has(c.workerId)) return false;
    seen.add(c.workerId);
    return true;
  });
  if (!origin) return fresh.slice(0, count);
  const far = Number.POSITIVE_INFINITY;
  return fresh
    .map((c, index) => ({ c, index, d: c.location ? distanceKm(origin, c.location) : far }))
    .sort((a, b) => a.d - b.d || a.index - b.index)
    .slice(0, count)
    .map(({ c }) => c);
}
