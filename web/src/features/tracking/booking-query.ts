/** The job a /track address names (its ?id=: a job's id or a booking's), as the page reads it. */
export function trackedBookingId(search: string): string {
  return new URLSearchParams(search).get('id')?.trim() ?? '';
}

/** Every tracked job's query starts with this: one invalidation refreshes whichever /track is open. */
export const trackedJobsKey = ['/api/track'] as const;

/** GET /api/track/{id}: the page's query key, whose parts joined by '/' are the URL it fetches. */
export const trackQueryKey = (id: string) => ['/api/track', encodeURIComponent(id)] as const;
