/** Server-side job lifecycle: every state a job can be in (job-lifecycle.ts says who may move it where). */
export const jobStates = [
  'booked',
  'offered',
  'accepted',
  'en_route',
  'arrived',
  'in_progress',
  'completed',
  'verified',
  'paid',
  'cancelled',
] as const;
export type JobState = (typeof jobStates)[number];

/** What a customer sees of a booking. */
export const bookingStatuses = ['new', 'confirmed', 'on_the_way', 'completed', 'cancelled'] as const;
export type BookingStatus = (typeof bookingStatuses)[number];

/** The four steps of the /track timeline; cancelled sits outside it. */
export const bookingTimeline = [
  { status: 'new', label: 'Request Received' },
  { status: 'confirmed', label: 'Professional Assigned' },
  { status: 'on_the_way', label: 'On the Way' },
  { status: 'completed', label: 'Completed' },
] as const satisfies readonly { status: BookingStatus; label: string }[];

const publicStatusByState: Record<JobState, BookingStatus> = {
  booked: 'new',
  offered: 'new',
  accepted: 'confirmed',
  en_route: 'on_the_way',
  arrived: 'on_the_way',
  in_progress: 'on_the_way',
  completed: 'completed',
  verified: 'completed',
  paid: 'completed',
  cancelled: 'cancelled',
};

export function bookingStatusOf(state: JobState): BookingStatus {
  return publicStatusByState[state];
}
