import type { JobState } from '../../../../shared/domain/booking-status';
import { distanceKm, etaMinutes, isValidLatLng, type LatLng } from '../../../../shared/domain/geo';
import type { ServerEvents } from '../../../../shared/realtime';
import type { ToastInput } from '../../components/ui/toast-store';

/**
 * What the customer reads while a professional comes to them: the arrival status, the distance and
 * the ETA, from the polled request and the job room's live events.
 */

/** The arrival status, held only in the browser (en_route, arrived, working), plus the moment before the trip. */
export type ArrivalStatus = 'accepted' | 'en_route' | 'arrived' | 'working';
export type WorkStatus = ServerEvents['work_status']['status'];

const arrivalOrder: Record<ArrivalStatus, number> = { accepted: 0, en_route: 1, arrived: 2, working: 3 };

/** The arrival status of a polled job state; null for a job nobody is coming to (yet, or any more). */
export function arrivalOfJob(state: JobState): ArrivalStatus | null {
  switch (state) {
    case 'accepted':
      return 'accepted';
    case 'en_route':
      return 'en_route';
    case 'arrived':
      return 'arrived';
    case 'in_progress':
    case 'completed':
    case 'verified':
    case 'paid':
      return 'working';
    default:
      return null;
  }
}

/** A work_status event as an arrival status: one minute away is still on the way; any other value is "Working". */
export function arrivalOfEvent(status: WorkStatus | string): ArrivalStatus {
  switch (status) {
    case 'en_route':
    case 'one_minute_away':
      return 'en_route';
    case 'arrived':
      return 'arrived';
    default:
      return 'working';
  }
}

/**
 * The polled state and the live event can each be the newer one; a job only moves forward, so the
 * further of the two is the truth (a late poll cannot take "Arrived" back to "On the way").
 */
export function furthestArrival(a: ArrivalStatus | null, b: ArrivalStatus | null): ArrivalStatus | null {
  if (a === null) return b;
  if (b === null) return a;
  return arrivalOrder[b] > arrivalOrder[a] ? b : a;
}

/** en_route "On the way", arrived "Arrived", anything else "Working"; before the trip, "Accepted". */
export function arrivalLabel(status: ArrivalStatus): string {
  switch (status) {
    case 'accepted':
      return 'Accepted';
    case 'en_route':
      return 'On the way';
    case 'arrived':
      return 'Arrived';
    default:
      return 'Working';
  }
}

/** An arrival estimate only means something before the professional is at the door. */
export function isTravelling(status: ArrivalStatus | null): boolean {
  return status === 'accepted' || status === 'en_route';
}

/** "Calculating..." until the ETA is known; never less than a minute, even when due now. */
export function etaText(minutes: number | null): string {
  if (minutes === null || !Number.isFinite(minutes)) return 'Calculating...';
  return `Arriving in about ${Math.max(1, Math.round(minutes))} min`;
}

/** Metres under a kilometre ("350 m away"), else kilometres with one decimal ("3.2 km away"). */
export function distanceText(km: number): string {
  if (!Number.isFinite(km) || km < 0) return '';
  if (km < 1) return `${Math.max(10, Math.round((km * 1000) / 10) * 10)} m away`;
  return `${km.toFixed(1)} km away`;
}

/** A usable map point: valid coordinates, and not the 0, 0 that stands for "unknown" or a typed address. */
export function pointOf(latitude: number | null | undefined, longitude: number | null | undefined): LatLng | null {
  if (typeof latitude !== 'number' || typeof longitude !== 'number') return null;
  const point = { lat: latitude, lng: longitude };
  if (!isValidLatLng(point) || (latitude === 0 && longitude === 0)) return null;
  return point;
}

/** What the job room has said about this job so far. */
export interface LiveTracking {
  worker: (LatLng & { accuracy: number | null; timestamp: string }) | null;
  /** Minutes, from the last fix that knew it (or "1 minute away"). */
  eta: number | null;
  arrival: ArrivalStatus | null;
}

export const initialLive: LiveTracking = { worker: null, eta: null, arrival: null };

export type LiveEvent =
  | { event: 'worker:loc'; data: ServerEvents['worker:loc'] }
  | { event: 'work_status'; data: ServerEvents['work_status'] };

/** Folds one live event for job `jobId` into what is known; events of other jobs change nothing. */
export function applyLive(live: LiveTracking, jobId: string, message: LiveEvent): LiveTracking {
  switch (message.event) {
    case 'worker:loc': {
      // The pro's fix: their point and, when the job has a position, the ETA to it. An ETA the
      // server could not know leaves a known one (a "1 minute away") in place.
      const { data } = message;
      if (data.jobId !== jobId) return live;
      const point = pointOf(data.lat, data.lng);
      const worker = point ? { ...point, accuracy: data.accuracy, timestamp: data.timestamp } : live.worker;
      const eta = typeof data.eta === 'number' && Number.isFinite(data.eta) ? data.eta : live.eta;
      return worker === live.worker && eta === live.eta ? live : { ...live, worker, eta };
    }
    case 'work_status': {
      const { data } = message;
      if (data.requestId !== jobId) return live;
      const arrival = furthestArrival(live.arrival, arrivalOfEvent(data.status));
      const eta = data.status === 'one_minute_away' ? 1 : typeof data.eta === 'number' && Number.isFinite(data.eta) ? data.eta : live.eta;
      return { ...live, arrival, eta };
    }
  }
}

/** The work-status live toasts: 1 minute away 10 s, arrived 15 s, work started 10 s. */
export function workStatusToast(status: WorkStatus | string): ToastInput | null {
  switch (status) {
    case 'one_minute_away':
      return { title: 'Your professional is 1 minute away', description: 'Please get ready to let them in.', duration: 10_000 };
    case 'arrived':
      return { title: 'Your professional has arrived', description: 'They are at your door.', duration: 15_000 };
    case 'work_started':
      return { title: 'Work started', description: 'Your professional has started the job.', duration: 10_000 };
    case 'en_route':
      return { title: 'Your professional is on the way' };
    default:
      return null;
  }
}

export interface TrackingView {
  status: ArrivalStatus | null;
  label: string | null;
  customer: LatLng | null;
  worker: LatLng | null;
  /** "2.4 km away", or null until both points are known. */
  distance: string | null;
  /** The ETA line while travelling ("Calculating..." until known); null once arrived. */
  eta: string | null;
}

/**
 * Everything the tracking card shows. The ETA is the server's (live, else polled); with both points
 * known and no word from the server yet, the shared travel estimate fills in.
 */
export function trackingView(
  polled: { jobState: JobState; etaMinutes: number | null; customer: LatLng | null },
  live: LiveTracking,
): TrackingView {
  const status = furthestArrival(arrivalOfJob(polled.jobState), live.arrival);
  const worker = live.worker ? { lat: live.worker.lat, lng: live.worker.lng } : null;
  const customer = polled.customer;
  const both = worker && customer ? { worker, customer } : null;
  const minutes = live.eta ?? polled.etaMinutes ?? (both ? etaMinutes(both.worker, both.customer) : null);
  return {
    status,
    label: status ? arrivalLabel(status) : null,
    customer,
    worker,
    distance: both && isTravelling(status) ? distanceText(distanceKm(both.worker, both.customer)) : null,
    eta: isTravelling(status) ? etaText(minutes) : null,
  };
}
