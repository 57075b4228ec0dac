import { isCategorySlug, type CategorySlug } from '../../../../shared/categories';
import { bandEdges, bandRank } from '../../../../shared/domain/distance-bands';
import type { WorkerListingView } from '../../../../shared/schemas/job';
import { unitToKm, type DisplaySettings } from '../../lib/config';

/**
 * The client-side half of the worker search: the category is filtered by the server (query
 * parameter), the text, the price ceiling and the order here.
 */
export const sortKeys = ['nearest', 'rating', 'price'] as const;
export type SortKey = (typeof sortKeys)[number];

export interface WorkerFilters {
  search: string;
  /** The "maximum hourly rate" box as typed, in dollars; blank or unreadable means no ceiling. */
  maxRate: string;
}

/** The ceiling in cents, or null when the box is blank or not a non-negative number. */
export function maxRateCents(maxRate: string): number | null {
  const trimmed = maxRate.trim();
  if (!trimmed) return null;
  const dollars = Number(trimmed);
  return Number.isFinite(dollars) && dollars >= 0 ? Math.round(dollars * 100) : null;
}

/** Case-insensitive match on the name or any specialty, for the worker search box. */
export function matchesSearch(worker: WorkerListingView, search: string): boolean {
  const needle = search.trim().toLowerCase();
  if (!needle) return true;
  return worker.fullName.toLowerCase().includes(needle) || worker.specialties.some((s) => s.toLowerCase().includes(needle));
}

export function filterWorkers(workers: readonly WorkerListingView[], filters: WorkerFilters): WorkerListingView[] {
  const ceiling = maxRateCents(filters.maxRate);
  return workers.filter((w) => matchesSearch(w, filters.search) && (ceiling === null || w.hourlyRate <= ceiling));
}

const far = Number.POSITIVE_INFINITY;
const rankOf = (worker: WorkerListingView) => (worker.distanceBand ? bandRank(worker.distanceBand.id) : far);
const byName = (a: WorkerListingView, b: WorkerListingView) => a.fullName.localeCompare(b.fullName);

const compare: Record<SortKey, (a: WorkerListingView, b: WorkerListingView) => number> = {
  // By band only (the server gives nothing finer); workers without one go last: unknown, not near.
  nearest: (a, b) => (rankOf(a) === rankOf(b) ? 0 : rankOf(a) - rankOf(b)),
  // Rated workers first, best average first, more reviews breaking ties; "New" workers after.
  rating: (a, b) => (b.rating ?? -1) - (a.rating ?? -1) || b.reviewCount - a.reviewCount,
  price: (a, b) => a.hourlyRate - b.hourlyRate,
};

/** A sorted copy; equal workers keep a stable order by name. */
export function sortWorkers(workers: readonly WorkerListingView[], key: SortKey): WorkerListingView[] {
  return [...workers].sort((a, b) => compare[key](a, b) || byName(a, b));
}

/**
 * The order in force: the customer's choice, else nearest once a saved service address gives the
 * list its bands, else rating. Nearest without one would only be the server's order, so it falls back too.
 */
export function effectiveSort(chosen: SortKey | null, addressSaved: boolean): SortKey {
  if (chosen === 'nearest' && !addressSaved) return 'rating';
  return chosen ?? (addressSaved ? 'nearest' : 'rating');
}

/** The "Within" choices, in the configured unit: the edges of the server's bands (5 miles, or 5 km). */
export const withinChoices = bandEdges;

/**
 * The "Within" box's value as the server's `maxKm`: null for "Any distance", for anything not
 * offered, and without a saved service address (the server measures from nothing else).
 */
export function maxKmOf(within: string, unit: DisplaySettings['distanceUnit'], addressSaved: boolean): number | null {
  const distance = Number(within);
  if (!addressSaved || !within || !(withinChoices as readonly number[]).includes(distance)) return null;
  // Three decimals (a metre) keep the query string short and stable for the query key.
  return Math.round(unitToKm(distance, unit) * 1000) / 1000;
}

/**
 * The worker list's query: the category and the distance limit, each only when set. No position:
 * the server measures from the saved service address alone.
 */
export function workerListQuery(category: string, maxKm: number | null = null): { category?: CategorySlug; maxKm?: number } {
  return { ...(isCategorySlug(category) ? { category } : {}), ...(maxKm !== null && maxKm > 0 ? { maxKm } : {}) };
}
