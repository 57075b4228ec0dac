import type { CrewMemberView } from '../../../../shared/schemas/views/job';

/** A crew member as the request's page receives it, for the crew screens' tests. */
export const noTimes = { acceptedAt: null, enRouteAt: null, arrivedAt: null, startedAt: null, endedAt: null, verifiedAt: null, paidAt: null, cancelledAt: null };
export const pro = (name: string) => ({ id: `w-${name}`, name, phone: '+1 415 555 0100', photoUrl: null, rating: 4.5, reviewCount: 3 });

export function member(index: number, overrides: Partial<CrewMemberView> = {}): CrewMemberView {
  return {
    jobId: `job-${index}`,
    index,
    number: `JOB0000${index}`,
    jobState: 'en_route',
    dispatch: 'assigned',
    worker: pro(`Pro Person ${index}`),
    arriveBy: '2026-03-10T12:20:00Z',
    etaMinutes: 12,
    times: { ...noTimes, acceptedAt: '2026-03-10T11:40:00Z', enRouteAt: '2026-03-10T11:45:00Z' },
    totalHours: null,
    position: null,
    arrivalClaim: null,
    invoiceId: null,
    ...overrides,
  };
}

export const searchingMember = (index: number) => member(index, { jobState: 'offered', dispatch: 'searching', worker: null, arriveBy: null, times: noTimes });
export const finishedMember = (index: number) => member(index, { jobState: 'completed', totalHours: 2.5, times: { ...noTimes, arrivedAt: '2026-03-10T12:05:00Z' } });
