/**
 * Query keys more than one feature reads or refreshes, and the URL a key names, in a module that
 * imports nothing: a screen that only refreshes a list must not load the code (and schemas) of the
 * screens that show it, and the entry chunk (app/route-data.ts) builds URLs without the query client.
 */

/** The URL a query key names: its parts joined with "/" (spec section 7). */
export function queryKeyUrl(queryKey: readonly unknown[]): string {
  return queryKey.map((part) => String(part)).join('/');
}

/** GET /api/requests: the customer's own requests (by the customer cookie). */
export const customerRequestsKey = ['/api/requests'] as const;

/** GET /api/invoices: the caller's own, newest first. Every single-invoice key starts with it, so one invalidation refreshes both. */
export const invoicesKey = ['/api/invoices'] as const;
