/**
 * The service-request vocabulary without its schema: the home page's picker, request cards and
 * payment pages need these words, and importing them from schemas/request.ts would bring zod (and
 * the cost of building every schema) into chunks that validate nothing.
 */

/** The request form's service choices (spec section 5). */
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

/** Spec: a service request is Pending until accepted, then In Progress, then Completed. */
export const requestStatuses = ['Pending', 'In Progress', 'Completed'] as const;
export type RequestStatus = (typeof requestStatuses)[number];

/** The request id people read: the last 8 characters, upper case. */
export function requestNumber(id: string): string {
  return id.slice(-8).toUpperCase();
}
