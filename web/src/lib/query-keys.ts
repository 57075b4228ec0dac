import { endpointRequest, queryEntries, type ApiKey, type GetEndpoint, type KeyTail, type PartsArg, type QueryAt } from './endpoint';

/**
 * Every query key of the app, each built from the route it reads, so a key and the URL its query
 * fetches (lib/api.ts: the key's parts joined by "/") cannot disagree, and invalidating a key's
 * prefix refreshes every query under that path. A screen that only refreshes a list imports this
 * module alone, not the code (and schemas) of the screens that show it.
 */

/** The key of a GET of `endpoint`: "/api", then the path's segments, then the query and scope if any. */
function apiKey<E extends GetEndpoint>(endpoint: E, ...[parts]: PartsArg<E, { scope?: string | null }>): ApiKey<E> {
  const given = parts as { params?: Record<string, string | number>; query?: object; scope?: string | null } | undefined;
  const { path } = endpointRequest(endpoint, given?.params);
  const key: (string | KeyTail)[] = ['/api', ...path.slice('/api/'.length).split('/')];
  const query = queryEntries(given?.query);
  const tail: KeyTail = {};
  if (query.length > 0) tail.query = Object.fromEntries(query);
  if (given?.scope) tail.scope = given.scope;
  if (tail.query || tail.scope) key.push(tail);
  return key;
}

/** The part of the endpoint's path before its first parameter: the prefix of every key of it. */
function pathPrefix(endpoint: GetEndpoint): ApiKey {
  const [, path = ''] = endpoint.split(' ');
  const fixed = path.split('/{')[0] ?? '';
  return ['/api', ...fixed.slice('/api/'.length).split('/').filter(Boolean)];
}

/**
 * The key of a query still waiting for what its URL needs (disabled until then): under its route's
 * path, so it is plainly that route's, yet equal to no key that fetches.
 */
function waiting<E extends GetEndpoint>(endpoint: E): ApiKey<E> {
  return [...pathPrefix(endpoint), { scope: 'waiting' }];
}

/** Whether `queryKey` is under `prefix` (the same parts first), as an invalidation of `prefix` would match it. */
export function isUnder(queryKey: readonly unknown[], prefix: ApiKey): boolean {
  return prefix.every((part, index) => queryKey[index] === part);
}

const atSixDecimals = (degrees: number) => Number(degrees.toFixed(6));

const workerScope = (workerId: string) => `worker:${workerId}`;

export const queryKeys = {
  // Everyone
  config: apiKey('GET /api/config'),
  services: apiKey('GET /api/services'),
  /** Each key taking what may be missing (here the slug) is a waiting one without it: its query is disabled then. */
  service: (slug: string | undefined) => (slug ? apiKey('GET /api/services/{slug}', { params: { slug } }) : waiting('GET /api/services/{slug}')),
  currentUser: apiKey('GET /api/auth/me'),
  adminStatus: apiKey('GET /api/admin/status'),
  addressSearch: (q: string | null) => (q === null ? waiting('GET /api/geocode') : apiKey('GET /api/geocode', { query: { q } })),
  /** Coordinates at six decimals (about 10 cm): one cache entry, and one request, per place. */
  reverseGeocode: (point: { lat: number; lng: number } | null) =>
    point === null
      ? waiting('GET /api/geocode/reverse')
      : apiKey('GET /api/geocode/reverse', { query: { lat: atSixDecimals(point.lat), lng: atSixDecimals(point.lng) } }),
  /** The notification centre's list, per signed-in identity (`scope`: the worker, the owner or the customer). */
  notifications: (scope: string | null) => apiKey('GET /api/notifications', { scope }),

  // The customer (the anonymous customer cookie)
  /** The customer's own requests. Every per-request key (its invoice, its payment) starts with it. */
  customerRequests: apiKey('GET /api/requests'),
  requestInvoice: (jobId: string) => apiKey('GET /api/requests/{id}/invoice', { params: { id: jobId } }),
  /** A crew's one bill, by its request (the lead job). */
  requestBill: (requestId: string) => apiKey('GET /api/requests/{id}/bill', { params: { id: requestId } }),
  paymentConfirmation: (jobId: string | null, sessionId: string | null) =>
    jobId === null
      ? waiting('GET /api/requests/{id}/payment')
      : apiKey('GET /api/requests/{id}/payment', { params: { id: jobId }, query: { session_id: sessionId ?? undefined } }),
  /** The caller's own invoices, newest first. Every invoice key starts with it, so one invalidation refreshes them all. */
  invoices: apiKey('GET /api/invoices'),
  invoice: (id: string) => apiKey('GET /api/invoices/{id}', { params: { id } }),
  /** The owner's list of every invoice, read a page at a time (an infinite query under the invoices key). */
  ownerInvoices: apiKey('GET /api/invoices', { scope: 'owner' }),
  /** Every tracked job's key starts with it: one invalidation refreshes whichever /track is open. */
  trackedJobs: pathPrefix('GET /api/track/{id}'),
  trackedJob: (id: string) => apiKey('GET /api/track/{id}', { params: { id } }),
  /** A company's own application, by the id in its status link. */
  companyApplicationStatus: (id: string) => apiKey('GET /api/company-applications/{id}', { params: { id } }),
  serviceAddress: apiKey('GET /api/customer/service-address'),
  /** Every worker list's key starts with it: a new review or a Find press refreshes whichever is shown. */
  workerListings: apiKey('GET /api/worker-profiles'),
  /** One list per category and distance, and per saved address (`savedAt`): a new address is a new list (new bands). */
  workerList: (query: QueryAt<'GET /api/worker-profiles'>, savedAt: string | null) =>
    apiKey('GET /api/worker-profiles', { query, scope: savedAt }),

  // The worker (their bearer token)
  workerMe: apiKey('GET /api/workers/me'),
  /** The pro's own strike record (any status: a suspended pro reads it too). */
  myStrikes: apiKey('GET /api/workers/strikes'),
  /** The applicant's own application (under workerMe: refreshing the worker refreshes it too). */
  workerApplication: apiKey('GET /api/workers/me/application'),
  jobOffers: (workerId: string) => apiKey('GET /api/jobs/offers/{workerId}', { params: { workerId } }),
  heldJobs: (workerId: string) => apiKey('GET /api/jobs/worker/{workerId}', { params: { workerId } }),
  job: (id: string) => apiKey('GET /api/jobs/{id}', { params: { id } }),
  completedJobs: (workerId: string) => apiKey('GET /api/jobs/completed/{workerId}', { params: { workerId } }),
  /** The worker's own invoices: the same URL as a customer's, kept apart in the same browser's cache. */
  workerInvoices: (workerId: string) => apiKey('GET /api/invoices', { scope: workerScope(workerId) }),
  payoutStatus: apiKey('GET /api/workers/payouts'),
  /** Every document key of the worker's starts with it (categories, lists, expiring). */
  documents: apiKey('GET /api/documents'),
  documentCategories: apiKey('GET /api/documents/categories'),
  documentList: (query: QueryAt<'GET /api/documents'>) => apiKey('GET /api/documents', { query }),
  expiringDocuments: (days: number) => apiKey('GET /api/documents/expiring/{days}', { params: { days } }),

  // The owner (their session cookie)
  /** Every key the owner's dashboard reads starts with it. */
  admin: ['/api', 'admin'] as ApiKey,
  setupStatus: apiKey('GET /api/admin/setup/status'),
  /** The owner's email on file, where a password-reset link goes. */
  ownerEmail: apiKey('GET /api/admin/email'),
  pendingWorkers: apiKey('GET /api/admin/workers/pending'),
  /** Every page of the workers list, whatever its status filter, starts with it. */
  workers: apiKey('GET /api/admin/workers/all'),
  adminWorkerList: (status: QueryAt<'GET /api/admin/workers/all'>['status']) => apiKey('GET /api/admin/workers/all', { query: { status } }),
  strikeAppeals: apiKey('GET /api/admin/strikes/appeals'),
  workerStrikes: (workerId: string) => apiKey('GET /api/admin/workers/{id}/strikes', { params: { id: workerId } }),
  /** Every key of the owner's jobs (the table's pages, Needs attention, a job's page) starts with it. */
  jobs: pathPrefix('GET /api/admin/jobs/{id}'),
  jobTable: (query: QueryAt<'GET /api/admin/jobs/all'>) => apiKey('GET /api/admin/jobs/all', { query }),
  jobsNeedingAttention: apiKey('GET /api/admin/jobs/attention', { query: {} }),
  adminJob: (id: string) => apiKey('GET /api/admin/jobs/{id}', { params: { id } }),
  availableWorkers: (category: string) => apiKey('GET /api/admin/workers/available', { query: { category } }),
  /** Every analytics key (each range, the pros' figures) starts with it: one invalidation refreshes them all. */
  analytics: pathPrefix('GET /api/admin/analytics'),
  analyticsRange: (query: QueryAt<'GET /api/admin/analytics'>) => apiKey('GET /api/admin/analytics', { query }),
  proFigures: apiKey('GET /api/admin/analytics/pros'),
  companyApplications: apiKey('GET /api/admin/company-applications'),
  compliance: apiKey('GET /api/admin/documents/compliance'),
  /** Every document list of the owner's starts with it. */
  adminDocuments: apiKey('GET /api/admin/documents'),
  pendingDocuments: apiKey('GET /api/admin/documents', { query: { status: 'pending_review' } }),
  /** Every worker's compliance key starts with it (as do the worker lists). */
  adminWorkers: pathPrefix('GET /api/admin/workers/{id}/documents'),
  workerCompliance: (workerId: string) => apiKey('GET /api/admin/workers/{id}/documents', { params: { id: workerId } }),
};
