/** The booking a /track address names (its ?id=), as the page reads it. */
export function trackedBookingId(search: string): string {
  return new URLSearchParams(search).get('id')?.trim() ?? '';
}

/** GET /api/bookings/{id}: the page's query key, whose parts joined by '/' are the URL it fetches. */
export const bookingQueryKey = (id: string) => ['/api/bookings', id] as const;
