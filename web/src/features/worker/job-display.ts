import type { JobState } from '../../../../shared/domain/booking-status';
import type { BadgeTone } from '../../components/ui/badge';

/** How a worker's job screens word and colour a job, and the sums behind their countdowns. */

/** Milliseconds left until `iso`, never below 0; 0 for a missing or unreadable time. */
export function remainingMs(iso: string | null, now: number): number {
  const at = iso ? Date.parse(iso) : Number.NaN;
  return Number.isFinite(at) ? Math.max(0, at - now) : 0;
}

/** mm:ss, rounding up so a countdown shows 00:00 only once the time has really come. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  return `${String(minutes).padStart(2, '0')}:${String(seconds).padStart(2, '0')}`;
}

/** The states that have a colour; every other state gets the neutral badge. */
const stateTones: Partial<Record<JobState, BadgeTone>> = {
  accepted: 'blue',
  en_route: 'yellow',
  arrived: 'orange',
  in_progress: 'green',
  completed: 'green',
};

export function jobStateTone(state: JobState): BadgeTone {
  return stateTones[state] ?? 'slate';
}

const stateLabels: Record<JobState, string> = {
  booked: 'Booked',
  offered: 'Offered',
  accepted: 'Accepted',
  en_route: 'En Route',
  arrived: 'Arrived',
  in_progress: 'In Progress',
  completed: 'Completed',
  verified: 'Verified',
  paid: 'Paid',
  cancelled: 'Cancelled',
};

export function jobStateLabel(state: JobState): string {
  return stateLabels[state] ?? state;
}

/** The arrival countdown runs until the worker has arrived. */
export function arrivalCountdownApplies(state: JobState, arriveBy: string | null): boolean {
  return Boolean(arriveBy) && (state === 'accepted' || state === 'en_route');
}

/** A job still 'accepted' after its arriveBy is overdue: the worker has not set off in time. */
export function isOverdue(job: { state: JobState; arriveBy: string | null }, now: number): boolean {
  if (job.state !== 'accepted' || !job.arriveBy) return false;
  const due = Date.parse(job.arriveBy);
  return Number.isFinite(due) && now > due;
}

export type WorkerAction = { kind: 'state'; state: 'en_route' | 'arrived' | 'in_progress'; label: string } | { kind: 'complete'; label: string };

/** The buttons of the job detail screen, in lifecycle order, from the states the server allows next. */
export function actionsFor(nextStates: readonly JobState[]): WorkerAction[] {
  const actions: WorkerAction[] = [];
  for (const next of nextStates) {
    if (next === 'en_route') actions.push({ kind: 'state', state: next, label: 'Mark En Route' });
    else if (next === 'arrived') actions.push({ kind: 'state', state: next, label: 'Mark Arrived' });
    else if (next === 'in_progress') actions.push({ kind: 'state', state: next, label: 'Start Work' });
    else if (next === 'completed') actions.push({ kind: 'complete', label: 'Complete Job' });
  }
  return actions;
}

/** Under an offer's town: why the street and the customer are not there yet. */
export const OFFER_DETAILS_NOTE = "The street and the customer's name and contact details show once you accept.";

/** An external maps search: by the address when there is one, else by the coordinates; none for an offer, which has neither. */
export function mapsUrl(job: { address?: string; latitude?: number | null; longitude?: number | null }): string | null {
  const address = job.address?.trim() ?? '';
  const { latitude, longitude } = job;
  const query = address ? address : typeof latitude === 'number' && typeof longitude === 'number' ? `${latitude},${longitude}` : '';
  return query ? `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(query)}` : null;
}

/** "3.2 km"; null when the distance is not known. */
export function formatKm(km: number | null): string | null {
  return km === null || !Number.isFinite(km) ? null : `${km.toFixed(1)} km`;
}

/** "handyman" -> "General Handyman", other slugs capitalised. */
export function categoryLabel(slug: string): string {
  if (slug === 'handyman') return 'General Handyman';
  return slug ? slug.charAt(0).toUpperCase() + slug.slice(1) : slug;
}

/** The service a job is for, with its trade when the service name does not already say it. */
export function serviceLabel(job: { service: string; category: string }): string {
  const service = job.service.trim();
  const category = categoryLabel(job.category);
  if (!service) return category;
  // A booking's service is its trade's name already ("Plumbing"; "Handyman" for handyman).
  if (!category || service.toLowerCase().includes(job.category.toLowerCase()) || service === category) return service;
  return `${service} (${category})`;
}

/** "One of 3 pros on this job" for a pro of a crew (each has a job of their own); null for a pro alone. */
export function crewPlaceText(workerCount: number): string | null {
  return workerCount > 1 ? `One of ${workerCount} pros on this job` : null;
}

/** "About 2.5 h": the hours the job's estimate expects of each pro; null without an estimate. */
export function estimatedHoursText(hours: number | null): string | null {
  return hours !== null && Number.isFinite(hours) && hours > 0 ? `About ${hours} h` : null;
}
