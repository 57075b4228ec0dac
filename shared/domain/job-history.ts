/**
 * The steps of a job's history (functions/jobs/data/job-history.ts writes them beside the job; the
 * owner's job page shows them as its timeline), and the sentence each is shown as.
 */
export const jobEventTypes = [
  'created',
  'offered',
  'offer_expired',
  'offer_declined',
  'offer_withdrawn',
  'accepted',
  'en_route',
  'arrived',
  'started',
  'completed',
  'verification_approved',
  'rework_requested',
  'no_pro',
  'reopened',
  'strike',
  'reassigned',
  'invoiced',
  'payment_failed',
  'paid',
  'rated',
  'cancelled',
  'rescheduled',
  'reminded',
] as const;
export type JobEventType = (typeof jobEventTypes)[number];

export const jobEventLabels: Record<JobEventType, string> = {
  created: 'Job created',
  offered: 'Offered to a pro',
  offer_expired: 'Offer expired',
  offer_declined: 'Offer declined',
  offer_withdrawn: 'Offer withdrawn',
  accepted: 'Accepted',
  en_route: 'On the way',
  arrived: 'Arrived',
  started: 'Work started',
  completed: 'Work completed',
  verification_approved: 'Customer approved the work',
  rework_requested: 'Customer asked for rework',
  no_pro: 'No pro found',
  reopened: 'Search started again',
  strike: 'Strike',
  reassigned: 'Reassigned',
  invoiced: 'Invoiced',
  payment_failed: 'Payment failed',
  paid: 'Paid',
  rated: 'Rated',
  cancelled: 'Cancelled',
  rescheduled: 'Rescheduled by the customer',
  reminded: 'Reminder sent',
};

/** A stored step's sentence; a type this build does not know is shown as it is stored. */
export function jobEventLabel(type: string): string {
  return (jobEventLabels as Record<string, string>)[type] ?? type.replace(/_/g, ' ');
}
