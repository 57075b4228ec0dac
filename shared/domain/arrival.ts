import { distanceKm, KM_PER_MILE, type LatLng } from './geo';

/**
 * Proof of arrival. Mark Arrived stops the 45-minute rule, so it is taken only with evidence: a
 * recent location fix close to the job, or, failing that, the customer's word. Without either the
 * pro's press is a claim the customer is asked to confirm, and the rule keeps running.
 */

/** How close to the job's position a fix must put the pro (functions read ARRIVAL_RADIUS_METRES). */
export const DEFAULT_ARRIVAL_RADIUS_METRES = 150;

/** A fix older than this says where the pro was, not where they are. */
export const ARRIVAL_FIX_MAX_AGE_SECONDS = 120;

/** A fix stamped this far ahead of the server's clock is still taken (clocks drift a little). */
const FUTURE_MARGIN_MS = 5_000;

/**
 * A claim made before the deadline keeps the job for at least this long after it was made, so the
 * customer has time to answer one made in the deadline's last minutes. It never extends a deadline
 * by more than this: a claim made after the deadline gets nothing.
 */
export const ARRIVAL_ANSWER_GRACE_SECONDS = 300;

export type ArrivalClaimReason = 'no-job-position' | 'no-fix' | 'too-far';

/** Where a device put the pro, how sure it was (metres; null when it did not say), and when (ISO). */
export interface ArrivalFix {
  lat: number;
  lng: number;
  accuracy: number | null;
  at: string;
}

/** What the job keeps as the reason it counts as arrived. */
export type ArrivalEvidence =
  | { method: 'location'; lat: number; lng: number; accuracy: number | null; distanceM: number; at: string }
  | { method: 'customer'; claimedAt: string; confirmedAt: string };

/** The pro said they arrived without a proof: the customer is asked. */
export interface ArrivalClaim {
  workerId: string;
  claimedAt: string;
  reason: ArrivalClaimReason;
  /** From the nearest usable fix to the job, whole metres; null without one. */
  distanceM: number | null;
}

export type ArrivalCheck =
  | { proven: true; fix: ArrivalFix; distanceM: number }
  | { proven: false; reason: ArrivalClaimReason; distanceM: number | null };

/**
 * Whether any of `fixes` proves the pro is at `job`: taken at most ARRIVAL_FIX_MAX_AGE_SECONDS ago,
 * with an accuracy radius no wider than `radiusM` (a vaguer fix, or one that gives no accuracy,
 * cannot tell 100 m from 1 km), and within `radiusM` of the job. Otherwise why not, with the
 * distance of the nearest usable fix.
 */
export function checkArrival(job: LatLng | null, fixes: readonly (ArrivalFix | null | undefined)[], radiusM: number, now: number): ArrivalCheck {
  if (!job) return { proven: false, reason: 'no-job-position', distanceM: null };
  const usable = fixes.filter((fix): fix is ArrivalFix => {
    if (!fix) return false;
    const age = now - Date.parse(fix.at);
    const recent = age >= -FUTURE_MARGIN_MS && age <= ARRIVAL_FIX_MAX_AGE_SECONDS * 1000;
    return recent && typeof fix.accuracy === 'number' && fix.accuracy <= radiusM;
  });
  const measured = usable
    .map((fix) => ({ fix, distanceM: distanceKm(job, { lat: fix.lat, lng: fix.lng }) * 1000 }))
    .sort((a, b) => a.distanceM - b.distanceM);
  const nearest = measured[0];
  if (!nearest) return { proven: false, reason: 'no-fix', distanceM: null };
  const distanceM = Math.round(nearest.distanceM);
  return nearest.distanceM <= radiusM ? { proven: true, fix: nearest.fix, distanceM } : { proven: false, reason: 'too-far', distanceM };
}

/** Until when a pro who has not proven arrival keeps the job: the deadline, or a pending claim's grace. */
export function arrivalDeadline(arriveBy: string, claim: Pick<ArrivalClaim, 'claimedAt'> | null | undefined): number {
  const deadline = Date.parse(arriveBy);
  const claimedAt = claim ? Date.parse(claim.claimedAt) : Number.NaN;
  if (!(claimedAt <= deadline)) return deadline;
  return Math.max(deadline, claimedAt + ARRIVAL_ANSWER_GRACE_SECONDS * 1000);
}

/** A short distance as a person reads it: metres or kilometres, feet or miles. */
export function shortDistanceText(metres: number, unit: 'mi' | 'km'): string {
  if (unit === 'km') return metres < 1000 ? `${Math.round(metres / 10) * 10 || Math.round(metres)} m` : `${(metres / 1000).toFixed(1)} km`;
  const feet = metres * 3.28084;
  return feet < 1000 ? `${Math.round(feet / 10) * 10 || Math.round(feet)} ft` : `${(metres / (KM_PER_MILE * 1000)).toFixed(1)} mi`;
}

/** What the pro is told when their Mark Arrived became a question to the customer. */
export function arrivalClaimMessage(claim: Pick<ArrivalClaim, 'reason' | 'distanceM'>, radiusM: number, unit: 'mi' | 'km'): string {
  const asked = 'We asked the customer to confirm you have arrived; until they do, the 45-minute deadline still applies.';
  switch (claim.reason) {
    case 'no-job-position':
      return `This job has no map position to check your location against. ${asked}`;
    case 'too-far':
      return `You are ${shortDistanceText(claim.distanceM ?? 0, unit)} from the address (arrived means within ${shortDistanceText(radiusM, unit)}). ${asked}`;
    case 'no-fix':
      return `We could not get a recent, precise location from your device. ${asked} Turn on location and press Mark Arrived again at the door to record it yourself.`;
  }
}
