import type { DistanceBand } from '../../../../shared/domain/distance-bands';
import { defaultDisplaySettings, unitWord, type DisplaySettings } from '../../lib/config';
import { formatHourlyRate } from '../../lib/money';

/**
 * How the dashboard writes money, ratings and distance bands, in the configured currency,
 * locale and unit. Every figure comes from the API or the browser's own fix; an unknown one is
 * left out rather than guessed.
 */

/** An hourly rate in cents: whole amounts without decimals ("$45/hr"), else two ("$45.50/hr"). */
export function hourlyRateLabel(cents: number, settings: DisplaySettings = defaultDisplaySettings): string {
  return formatHourlyRate(cents, { ...settings, whole: true });
}

export interface RatingText {
  /** What the card shows: "4.7" or "New". */
  visible: string;
  /** The review count beside it, or null for a worker with none. */
  reviews: string | null;
  /** The whole of it for screen readers. */
  spoken: string;
}

/** A worker's average with one decimal, or "New" while they have no reviews (null rating). */
export function ratingText(rating: number | null, reviewCount: number): RatingText {
  if (rating === null || reviewCount <= 0) {
    return { visible: 'New', reviews: null, spoken: 'New: no reviews yet' };
  }
  const average = rating.toFixed(1);
  const reviews = `${reviewCount} ${reviewCount === 1 ? 'review' : 'reviews'}`;
  return { visible: average, reviews, spoken: `Rated ${average} out of 5 from ${reviews}` };
}

/**
 * "Under 5 miles away", "5–10 miles away", "Over 50 miles away" (or km): the band the server gave,
 * worded in its own unit. Null without a band; the server never sends a finer figure.
 */
export function bandLabel(band: DistanceBand | null): string | null {
  if (!band) return null;
  const unit = (distance: number) => unitWord(distance, band.unit);
  if (band.to === null) return `Over ${band.from} ${unit(band.from)} away`;
  if (band.from === 0) return `Under ${band.to} ${unit(band.to)} away`;
  return `${band.from}–${band.to} ${unit(band.to)} away`;
}

/** The service areas a card names: the first two, blank ones left out. */
export function shownAreas(areas: readonly string[] | null | undefined): string[] {
  return (areas ?? []).map((area) => area.trim()).filter(Boolean).slice(0, 2);
}
