/**
 * How the dashboard writes money, ratings, distances and positions. Every figure comes from the
 * API or the browser's own fix; an unknown one is left out rather than guessed.
 */

/** An hourly rate in cents as dollars: whole dollars without decimals ("$45/hr"), else two. */
export function hourlyRateLabel(cents: number): string {
  const whole = cents % 100 === 0;
  const amount = new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: whole ? 0 : 2,
  }).format(cents / 100);
  return `${amount}/hr`;
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

/** "3.2 km", or null when the server could not measure it. */
export function distanceLabel(km: number | null): string | null {
  return km === null || !Number.isFinite(km) ? null : `${km.toFixed(1)} km`;
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
