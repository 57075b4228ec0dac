/**
 * The service-request vocabulary without its schema: the home page's picker, request cards and
 * payment pages need these words, and importing them from schemas/request.ts would bring zod (and
 * the cost of building every schema) into chunks that validate nothing.
 */

/** The request form's service choices. */
export const requestServices = [
  'Insurance Claims',
  'Contract Workers',
  'Plumbing',
  'Electrical',
  'Carpentry',
  'Painting',
  'Cleaning',
  'Pool Repair/Cleaner',
  'Landscaping Repair/Landscapers',
  'Appliance Repair',
  'Gardening',
  'Other',
] as const;
export type RequestService = (typeof requestServices)[number];

/** A service request is Pending until accepted, then In Progress, then Completed. */
export const requestStatuses = ['Pending', 'In Progress', 'Completed'] as const;
export type RequestStatus = (typeof requestStatuses)[number];

/** The request id people read: the last 8 characters, upper case. */
export function requestNumber(id: string): string {
  return id.slice(-8).toUpperCase();
}

/**
 * A phone number as the tracking lookup compares it: its digits, the last ten of them, so
 * "(415) 555-0142", "415.555.0142" and "+1 415 555 0142" are the same number.
 */
export function phoneDigits(phone: string): string {
  return phone.replace(/\D/g, '').slice(-10);
}

/** How long after "no worker available" a pro of the trade coming on call nearby is offered the job. */
export const REOFFER_WINDOW_MINUTES = 30;
