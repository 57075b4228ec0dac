/**
 * Query keys more than one feature reads or refreshes, in a module that imports nothing: a screen
 * that only refreshes a list must not load the code (and schemas) of the screens that show it.
 */

/** GET /api/requests: the customer's own requests (by the customer cookie). */
export const customerRequestsKey = ['/api/requests'] as const;

/** GET /api/invoices: the caller's own, newest first. Every single-invoice key starts with it, so one invalidation refreshes both. */
export const invoicesKey = ['/api/invoices'] as const;
