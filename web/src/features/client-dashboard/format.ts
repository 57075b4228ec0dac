import { defaultDisplaySettings, kmToUnit, moneyText, type DisplaySettings } from '../../lib/config';

/**
 * How the dashboard writes money, ratings, distances and positions, in the configured currency,
 * locale and unit. Every figure comes from the API or the browser's own fix; an unknown one is
 * left out rather than guessed.
 */

/** An hourly rate in cents: whole amounts without decimals ("$45/hr"), else two ("$45.50/hr"). */
export function hourlyRateLabel(cents: number, settings: DisplaySettings = defaultDisplaySettings): string {
  return `${moneyText(cents, settings, true)}/hr`;
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

/** "2.3 mi" (or "3.7 km"), one decimal, or null when the server could not measure it. */
export function distanceLabel(km: number | null, settings: DisplaySettings = defaultDisplaySettings): string | null {
  if (km === null || !Number.isFinite(km)) return null;
  const number = new Intl.NumberFormat(settings.locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(
    kmToUnit(km, settings.distanceUnit),
  );
  return `${number} ${settings.distanceUnit}`;
}

/** The service areas a card names: the first two, blank ones left out. */
export function shownAreas(areas: readonly string[] | null | undefined): string[] {
  return (areas ?? []).map((area) => area.trim()).filter(Boolean).slice(0, 2);
}

/** "~12 min", or null when unknown; never below one minute. */
export function etaLabel(minutes: number | null): string | null {
  return minutes === null || !Number.isFinite(minutes) ? null : `~${Math.max(1, Math.round(minutes))} min`;
}

/** Up to two initials for the avatar of a worker without a photo. */
export function initials(fullName: string): string {
  const words = fullName.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return '?';
  const first = words[0]!.charAt(0);
  const last = words.length > 1 ? words[words.length - 1]!.charAt(0) : '';
  return (first + last).toUpperCase();
}
