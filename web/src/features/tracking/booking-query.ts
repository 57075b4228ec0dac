/** The job a /track address names (its ?id=: a job's id or a booking's), as the page reads it. */
export function trackedBookingId(search: string): string {
  return new URLSearchParams(search).get('id')?.trim() ?? '';
}
