import type { RouteDef, ResponseSchemaName } from '../route-types';

export const bookingsRoutes = [
  {
    name: 'create-booking',
    method: 'POST',
    path: '/api/bookings',
    access: 'public',
    body: 'bookingInputSchema',
    response: 'booking',
    table: 'readwrite',
    scheduler: true,
    realtime: true,
  },
  {
    name: 'get-booking',
    method: 'GET',
    path: '/api/bookings/{id}',
    access: 'anyone',
    params: 'id',
    missing: { status: 404, message: 'The booking ID you entered could not be found.' },
    response: 'booking',
    table: 'read',
  },
  // Any door's job (a booking, a request, a hire) by its unguessable id: the link follows its
  // progress; who the caller is decides whether the customer's own details come with it.
  {
    name: 'get-tracked-request',
    method: 'GET',
    path: '/api/track/{id}',
    access: 'anyone',
    params: 'id',
    missing: { status: 404, message: 'The booking ID you entered could not be found.' },
    response: 'trackedRequest',
    table: 'read',
    uploads: 'read',
  },
  // The number a screen showed plus the phone it was made with; guessing is throttled like a login.
  {
    name: 'find-tracked-request',
    method: 'POST',
    path: '/api/track/lookup',
    access: 'public',
    body: 'trackLookupSchema',
    response: 'trackLookup',
    table: 'readwrite',
  },

  // Customers: requests, hires, the workers they can hire, addresses
  {
    name: 'create-request',
    method: 'POST',
    path: '/api/requests',
    access: 'public',
    body: 'serviceRequestSchema',
    response: 'createdRequest',
    table: 'readwrite',
    scheduler: true,
    realtime: true,
  },
  // What a job would cost before it is sent; rationed per network address (it reads pros' rates).
  {
    name: 'create-estimate',
    method: 'POST',
    path: '/api/estimates',
    access: 'public',
    body: 'estimateInputSchema',
    response: 'estimate',
    table: 'readwrite',
  },
  // Public, not 'customer': a visitor without requests gets an empty list rather than a 401.
  { name: 'list-requests', method: 'GET', path: '/api/requests', access: 'public', response: 'serviceRequests', table: 'read', uploads: 'read' },
  // No dead end: the same job offered afresh after nobody accepted, or withdrawn before anyone did.
  {
    name: 'retry-request',
    method: 'POST',
    path: '/api/requests/{id}/retry',
    access: 'customer',
    params: 'id',
    missing: { status: 404, message: 'We could not find this request among yours.' },
    response: 'serviceRequest',
    table: 'readwrite',
    scheduler: true,
    realtime: true,
  },
  {
    name: 'cancel-request',
    method: 'POST',
    path: '/api/requests/{id}/cancel',
    access: 'customer',
    params: 'id',
    missing: { status: 404, message: 'We could not find this request among yours.' },
    response: 'serviceRequest',
    table: 'readwrite',
    scheduler: true,
    realtime: true,
  },
  // A scheduled job's new start, until the pro is on the way: moves its timers, tells the pro.
  {
    name: 'reschedule-request',
    method: 'POST',
    path: '/api/requests/{id}/reschedule',
    access: 'customer',
    params: 'id',
    missing: { status: 404, message: 'We could not find this request among yours.' },
    body: 'rescheduleSchema',
    response: 'serviceRequest',
    table: 'readwrite',
    scheduler: true,
    realtime: true,
  },
  {
    name: 'hire-worker',
    method: 'POST',
    path: '/api/hire',
    access: 'public',
    body: 'hireSchema',
    response: 'createdRequest',
    table: 'readwrite',
    scheduler: true,
    realtime: true,
  },
  // Public, not 'customer': saving the address is how a first-time visitor gets their customer
  // identity (as with a first request); changes are rationed per customer and per network address.
  { name: 'get-service-address', method: 'GET', path: '/api/customer/service-address', access: 'public', response: 'serviceAddress', table: 'read' },
  {
    name: 'save-service-address',
    method: 'PUT',
    path: '/api/customer/service-address',
    access: 'public',
    body: 'serviceAddressSchema',
    response: 'serviceAddress',
    table: 'readwrite',
  },
  // "Find my requests": a single-use link mailed to an address requests were made with; asking is
  // throttled like a login and answers the same whether or not the address is known.
  {
    name: 'request-requests-link',
    method: 'POST',
    path: '/api/customer/requests-link',
    access: 'public',
    body: 'requestsLinkSchema',
    response: 'message',
    table: 'readwrite',
  },
  // Reads what opening the link would show, spending nothing: the page asks before it spends. A
  // POST, so the link's secret stays out of addresses and logs.
  {
    name: 'preview-requests-link',
    method: 'POST',
    path: '/api/customer/requests-link/preview',
    access: 'public',
    body: 'requestsLinkOpenSchema',
    response: 'requestsLinkPreview',
    table: 'readwrite',
  },
  // Spends the link: in the browser that asked for it, gathers the address's requests to it (its
  // cookie); in any other, only lists them to follow, and changes nothing of that browser.
  {
    name: 'open-requests-link',
    method: 'POST',
    path: '/api/customer/requests-link/open',
    access: 'public',
    body: 'requestsLinkOpenSchema',
    response: 'requestsLinkOpened',
    table: 'readwrite',
    uploads: 'read',
  },
  {
    name: 'rate-job',
    method: 'POST',
    path: '/api/jobs/{id}/rating',
    access: 'customer',
    params: 'id',
    missing: { status: 404, message: 'We could not find this job among yours.' },
    body: 'jobRatingSchema',
    response: 'review',
    table: 'readwrite',
  },
] as const satisfies readonly (RouteDef & { response: ResponseSchemaName })[];
