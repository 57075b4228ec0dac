import type { JobState } from '../../../shared/domain/booking-status';
import { phoneDigits, requestNumber } from '../../../shared/domain/requests';
import { jobEntity, type JobItem } from '../../../shared/entities';
import { offerReleaseAt, startOf } from '../scheduling';

/** What a new job is made from, whichever door it came through (a booking, a request, a hire). */
export interface NewJob {
  id: string;
  kind: JobItem['kind'];
  bookingId?: string;
  customerId: string;
  category: string;
  service: string;
  customerName: string;
  customerPhone: string;
  customerEmail?: string;
  address: string;
  latitude?: number | null;
  longitude?: number | null;
  gpsEnabled?: boolean;
  description: string;
  preferredWorkerId?: string;
  requestedTime?: string | null;
  estimate?: JobItem['estimate'];
  createdAt: string;
}

/** A new job item, not yet offered to anyone. */
export function jobItem(input: NewJob): JobItem {
  const located = typeof input.latitude === 'number' && typeof input.longitude === 'number' && !(input.latitude === 0 && input.longitude === 0);
  // Every door's job is among its customer's requests: a booking is verified, paid and rated as one.
  return jobEntity.withIndexKeys({
    ...jobEntity.key(input.id),
    entity: 'job',
    id: input.id,
    kind: input.kind,
    bookingId: input.bookingId ?? null,
    customerId: input.customerId,
    category: input.category,
    service: input.service,
    customerName: input.customerName,
    customerPhone: input.customerPhone,
    customerEmail: input.customerEmail ?? null,
    address: input.address,
    latitude: located ? input.latitude! : null,
    longitude: located ? input.longitude! : null,
    gpsEnabled: input.gpsEnabled ?? false,
    description: input.description,
    requestedTime: input.requestedTime ?? null,
    estimate: input.estimate ?? null,
    state: 'booked',
    version: 0,
    dispatch: 'searching',
    offers: {},
    tried: [],
    preferredWorkerId: input.preferredWorkerId ?? null,
    acceptedBy: null,
    hourlyRate: null,
    acceptedAt: null,
    arriveBy: null,
    enRouteAt: null,
    arrivedAt: null,
    startedAt: null,
    endedAt: null,
    totalHours: null,
    reassignedCount: 0,
    // A scheduled job's search begins when its offers open, so the owner's "searching too long" counts from then.
    searchingSince: searchBeginsAt(input.requestedTime ?? null, input.createdAt),
    searchCustomer: [input.customerName, phoneDigits(input.customerPhone), input.customerEmail ?? ''].join(' ').toLowerCase(),
    searchJob: [requestNumber(input.bookingId ?? input.id), input.address, input.description].join(' ').toLowerCase(),
    createdAt: input.createdAt,
    updatedAt: input.createdAt,
  });
}

/**
 * The number screens show for a job: a booking's is its booking's (the id in the link /book sent
 * the customer to), a request's or a hire's its own; last 8 characters, upper case.
 */
export function jobNumber(job: Pick<JobItem, 'id' | 'bookingId'>): string {
  return requestNumber(job.bookingId ?? job.id);
}

/** When a job's search begins: at once, or for a scheduled job when its offers open (a day before its start). */
export function searchBeginsAt(requestedTime: string | null, now: string): string {
  const start = startOf({ requestedTime });
  return start === null ? now : new Date(offerReleaseAt(start, Date.parse(now))).toISOString();
}

/** Why a conditional change did not happen: the caller decides which 4xx that is. */
export class JobChangeRefused extends Error {
  constructor(readonly current: JobItem | undefined, readonly workerRefused = false) {
    super('Job change refused');
    this.name = 'JobChangeRefused';
  }
}

/**
 * The states of a held job that go back to dispatch when the owner suspends or terminates its pro:
 * the work has not started (accepted, on the way, or at the door). Work in progress stays with the
 * pro for the owner to settle: its hours and the pro's invoice depend on the pro who did it.
 */
export const RELEASED_WITH_THE_PRO: readonly JobState[] = ['accepted', 'en_route', 'arrived'];
