import type * as z from 'zod/mini';
import type {
  companyApplicationSchema,
  companyApprovalSchema,
  companyRejectionSchema,
  uploadRequestSchema,
  workerRejectionSchema,
  workerApplicationSchema,
  workerApplyLegacySchema,
} from './schemas/applications';
import type {
  adminLoginSchema,
  adminSetupSchema,
  changePasswordSchema,
  devLoginSchema,
  ownerEmailSchema,
  passwordResetCompleteSchema,
  passwordResetRequestSchema,
  workerAccountLinkCheckSchema,
  workerAccountLinkRequestSchema,
  workerCreateAccountSchema,
  workerLoginSchema,
} from './schemas/auth';
import type { bookingInputSchema } from './schemas/booking';
import type { documentReviewSchema, documentUploadSchema } from './schemas/documents';
import type { arrivalAnswerSchema, hireSchema, jobActionSchema, jobStateSchema, workerLocationSchema } from './schemas/job';
import type { rescheduleSchema, serviceRequestSchema } from './schemas/request';
import type { estimateInputSchema } from './schemas/estimate';
import type { serviceAddressSchema } from './schemas/service-address';
import type { requestsLinkOpenSchema, requestsLinkSchema } from './schemas/requests-link';
import type { trackLookupSchema } from './schemas/tracking';
import type { checkoutSessionSchema, clientVerificationSchema, createInvoiceSchema } from './schemas/invoice';
import type { pushEndpointSchema, pushRenewSchema, pushSubscribeSchema } from './schemas/push';
import type { jobRatingSchema, workerReviewSchema } from './schemas/review';
import type { adminJobCancelSchema, adminJobOfferSchema } from './schemas/owner-jobs';
import type { availabilitySchema, workerProfileSchema, workerTypeSchema } from './schemas/worker';
import type { strikeAppealSchema, strikeDecisionSchema, workerStatusChangeSchema } from './schemas/strikes';
import type { paramSchemas } from './schemas/params';
import type { querySchemas } from './schemas/query';
import type { responseSchemas } from './schemas/responses';
import { keys } from './entities';

/**
 * The body schema of each route, by name. Type-only: the manifest is plain data that every
 * function bundles, so it must not pull in every schema; each handler imports its own schema and
 * hands it to the stack (functions/common/http.ts), and the manifest test checks it is this one.
 */
export interface BodySchemas {
  companyApplicationSchema: typeof companyApplicationSchema;
  companyApprovalSchema: typeof companyApprovalSchema;
  companyRejectionSchema: typeof companyRejectionSchema;
  workerRejectionSchema: typeof workerRejectionSchema;
  uploadRequestSchema: typeof uploadRequestSchema;
  workerApplicationSchema: typeof workerApplicationSchema;
  workerApplyLegacySchema: typeof workerApplyLegacySchema;
  adminLoginSchema: typeof adminLoginSchema;
  adminSetupSchema: typeof adminSetupSchema;
  changePasswordSchema: typeof changePasswordSchema;
  ownerEmailSchema: typeof ownerEmailSchema;
  passwordResetRequestSchema: typeof passwordResetRequestSchema;
  passwordResetCompleteSchema: typeof passwordResetCompleteSchema;
  devLoginSchema: typeof devLoginSchema;
  workerCreateAccountSchema: typeof workerCreateAccountSchema;
  workerAccountLinkRequestSchema: typeof workerAccountLinkRequestSchema;
  workerAccountLinkCheckSchema: typeof workerAccountLinkCheckSchema;
  workerLoginSchema: typeof workerLoginSchema;
  bookingInputSchema: typeof bookingInputSchema;
  hireSchema: typeof hireSchema;
  jobActionSchema: typeof jobActionSchema;
  jobStateSchema: typeof jobStateSchema;
  arrivalAnswerSchema: typeof arrivalAnswerSchema;
  workerLocationSchema: typeof workerLocationSchema;
  serviceRequestSchema: typeof serviceRequestSchema;
  rescheduleSchema: typeof rescheduleSchema;
  estimateInputSchema: typeof estimateInputSchema;
  serviceAddressSchema: typeof serviceAddressSchema;
  requestsLinkSchema: typeof requestsLinkSchema;
  requestsLinkOpenSchema: typeof requestsLinkOpenSchema;
  trackLookupSchema: typeof trackLookupSchema;
  jobRatingSchema: typeof jobRatingSchema;
  workerReviewSchema: typeof workerReviewSchema;
  availabilitySchema: typeof availabilitySchema;
  workerProfileSchema: typeof workerProfileSchema;
  workerTypeSchema: typeof workerTypeSchema;
  strikeAppealSchema: typeof strikeAppealSchema;
  strikeDecisionSchema: typeof strikeDecisionSchema;
  workerStatusChangeSchema: typeof workerStatusChangeSchema;
  clientVerificationSchema: typeof clientVerificationSchema;
  createInvoiceSchema: typeof createInvoiceSchema;
  checkoutSessionSchema: typeof checkoutSessionSchema;
  pushSubscribeSchema: typeof pushSubscribeSchema;
  pushEndpointSchema: typeof pushEndpointSchema;
  pushRenewSchema: typeof pushRenewSchema;
  documentUploadSchema: typeof documentUploadSchema;
  documentReviewSchema: typeof documentReviewSchema;
  adminJobOfferSchema: typeof adminJobOfferSchema;
  adminJobCancelSchema: typeof adminJobCancelSchema;
}
export type BodySchemaName = keyof BodySchemas;

/**
 * The path parameters' schema of each route with any (`{id}` in its path), by name; type-only like
 * BodySchemas. The runtime schemas are shared/schemas/params.ts, small enough that the stack
 * (functions/common/http.ts) bundles them all and checks every route's parameters itself.
 */
export type ParamSchemas = typeof paramSchemas;
export type ParamSchemaName = keyof ParamSchemas;

/** The query string's schema of each route that reads one, by name (shared/schemas/query.ts). */
export type QuerySchemas = typeof querySchemas;
export type QuerySchemaName = keyof QuerySchemas;

/**
 * The schema of each route's answer (2xx body), by name: checked by the tests only, never at run
 * time (shared/schemas/responses.ts holds the runtime map the tests use).
 */
export type ResponseSchemas = typeof responseSchemas;
export type ResponseSchemaName = keyof ResponseSchemas;

/**
 * Every HTTP route, once. The CDK stack makes one Lambda and one HTTP API
 * route per entry; the local runtime serves the same entries; a test ties the three together.
 * `name` is the handler file (functions/<name>.ts) and the sample event (events/<name>.json).
 */
/**
 * public: anyone, unidentified (the handler reads no credentials, or one of its own choosing).
 * anyone: anyone, identified if possible: the handler gets whoever the call proves to be, a
 * worker's bearer token first (a worker's browser may also carry a customer cookie), then the
 * owner's session cookie, then the customer cookie, else anonymous.
 * signed-in: an owner or a worker (any worker's token), whichever the call proves, in that order.
 * customer: the anonymous customer cookie. admin: the owner's session cookie.
 * applicant: any worker's bearer token, an applicant's whose application is under review or was
 * not approved included (their own profile, their application's status, logout).
 * worker: a worker past review: any worker's token but an applicant's (pending_review, rejected);
 * suspended and terminated workers may read their status.
 * active-worker: an approved, active worker's token.
 */
export type Access = 'public' | 'anyone' | 'signed-in' | 'customer' | 'admin' | 'applicant' | 'worker' | 'active-worker';
export type TableAccess = 'none' | 'read' | 'write' | 'readwrite';
/**
 * What a function may do in the single table: an access level, or one limited to the items whose
 * partition key matches one of `partitionKeys` (IAM's dynamodb:LeadingKeys; `*` matches any run of
 * characters), for a function that touches one kind of item only. `indexes`: it also Queries the
 * table's indexes, where the keys it is limited to are the index's own partition keys.
 */
export type TableGrant = TableAccess | { access: Exclude<TableAccess, 'none'>; partitionKeys: readonly string[]; indexes?: boolean };
/**
 * Rights on the uploads bucket's document prefixes. On document-uploads/ (where presigned POSTs
 * write): upload (hand out presigned POSTs), read-upload, delete-upload. On documents/ (the files
 * the confirm checked, which no presigned POST can write): write, read, delete. retain: write
 * retained/ copies of deleted documents.
 */
export type DocumentGrant = 'upload' | 'read-upload' | 'delete-upload' | 'write' | 'read' | 'delete' | 'retain';

export interface RouteDef {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: `/api/${string}`;
  access: Access;
  /** The JSON body's schema (its export name in shared/schemas/); routes without one accept no body. */
  body?: BodySchemaName;
  /** The path parameters' schema (ParamSchemas); required exactly when the path has `{…}`. */
  params?: ParamSchemaName;
  /**
   * What the route answers for path parameters that name nothing, a malformed one included (the
   * stack refuses it with this answer before the handler runs). Without it, a malformed parameter
   * is a 400 naming it.
   */
  missing?: { status: 403 | 404; message: string };
  /** The query string's schema (QuerySchemas); routes without one ignore the query string. */
  query?: QuerySchemaName;
  /** The schema of the 2xx answer's body (ResponseSchemas), checked by the tests; every manifest entry names one. */
  response?: ResponseSchemaName;
  /** Least-privilege grant on the single table. */
  table: TableGrant;
  /**
   * Least-privilege grant on the private uploads bucket (presigning needs the same rights): read
   * uploads/ (profile photos), write uploads/ (presigned POSTs), file (read and delete uploads/,
   * write applications/: an application's files copied where no presigned POST can write),
   * review (read applications/, and uploads/ for applications filed before their files were copied).
   */
  uploads?: 'read' | 'write' | 'file' | 'review';
  /** Least-privilege rights on the bucket's document prefixes (see DocumentGrant). */
  documents?: readonly DocumentGrant[];
  /**
   * Served by the local runtime alone (infra/local): the CDK stack never deploys it, whatever the
   * stage is called, and its handler answers only where the local runtime set LOCAL_RUNTIME.
   */
  localRuntimeOnly?: boolean;
  /** Creates or deletes EventBridge Scheduler timers (offer expiry, arrival grace). */
  scheduler?: boolean;
  /** Calls Stripe: gets the Stripe secret key (and the webhook secret for the webhook). */
  stripe?: boolean;
  /** The handler reads the body as raw text (a signed webhook); no JSON parsing or schema. */
  rawBody?: boolean;
  /** Publishes to /ws rooms (and notifications): gets WEBSOCKET_ENDPOINT and execute-api:ManageConnections. */
  realtime?: boolean;
  /** Sends web push: gets the VAPID keys. */
  push?: boolean;
  /**
   * The function's memory in MB, where the stack's default (256) is too little. Lambda gives CPU in
   * proportion to memory (one whole vCPU at 1,769 MB), so this is also how fast CPU-bound work runs.
   */
  memoryMb?: number;
}

/**
 * The memory of every function that hashes or verifies a password (scrypt at the OWASP setting,
 * functions/common/auth/passwords.ts). scrypt is one thread of CPU work: at 256 MB (a seventh of a vCPU)
 * one hash takes seconds, at 1,769 MB (one vCPU) it runs at a core's full speed for the same price
 * per hash, and more memory buys nothing for it. README: Performance.
 */
export const PASSWORD_HASHING_MEMORY_MB = 1769;

/** The geocode cache's items (shared/table.ts `keys.geocode`), whatever the query. */
const geocodeCacheOnly = { access: 'readwrite', partitionKeys: [keys.geocode('*').pk] } as const satisfies TableGrant;

/** A worker's lists by worker id: an id that is not the caller's (or is no id at all). */
const OWN_JOBS_ONLY = { status: 403, message: 'You can only act on your own jobs.' } as const;
/** A worker's job screens: a job id that names none of the worker's jobs. */
const JOB_NOT_FOUND = { status: 404, message: 'Job not found. It may have been reassigned or it is not yours.' } as const;
const NO_SUCH_DOCUMENT = { status: 404, message: 'No such document.' } as const;
const NO_SUCH_JOB = { status: 404, message: 'No job with this id.' } as const;
const NO_SUCH_WORKER = { status: 404, message: 'No worker with this id.' } as const;
const NO_SUCH_STRIKE = { status: 404, message: 'No strike with this id.' } as const;

export const routes = [
  { name: 'get-config', method: 'GET', path: '/api/config', access: 'public', response: 'publicConfig', table: 'none' },
  { name: 'list-services', method: 'GET', path: '/api/services', access: 'public', response: 'services', table: 'read' },
  {
    name: 'get-service',
    method: 'GET',
    path: '/api/services/{slug}',
    access: 'public',
    params: 'slug',
    missing: { status: 404, message: "The service you're looking for could not be found." },
    response: 'service',
    table: 'read',
  },
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

  // The owner
  { name: 'get-admin-status', method: 'GET', path: '/api/admin/status', access: 'anyone', response: 'adminStatus', table: 'read' },
  { name: 'get-setup-status', method: 'GET', path: '/api/admin/setup/status', access: 'public', response: 'setupStatus', table: 'read' },
  {
    name: 'setup-admin',
    method: 'POST',
    path: '/api/admin/setup',
    access: 'public',
    body: 'adminSetupSchema',
    response: 'ownerSignedIn',
    table: 'readwrite',
    memoryMb: PASSWORD_HASHING_MEMORY_MB,
  },
  {
    name: 'login-admin',
    method: 'POST',
    path: '/api/admin/login',
    access: 'public',
    body: 'adminLoginSchema',
    response: 'ownerSignedIn',
    table: 'readwrite',
    memoryMb: PASSWORD_HASHING_MEMORY_MB,
  },
  // Public, not 'signed-in': a logout without a live session still clears the cookie (200), and it
  // may only delete: it ends whatever session the cookie names without reading who that is.
  { name: 'logout-admin', method: 'POST', path: '/api/admin/logout', access: 'public', response: 'ok', table: 'write' },
  { name: 'end-session', method: 'POST', path: '/api/auth/logout', access: 'public', response: 'ok', table: 'write' },
  { name: 'get-current-user', method: 'GET', path: '/api/auth/me', access: 'anyone', response: 'currentUser', table: 'read' },
  {
    name: 'change-password',
    method: 'POST',
    path: '/api/auth/change-password',
    access: 'admin',
    body: 'changePasswordSchema',
    response: 'message',
    table: 'readwrite',
    memoryMb: PASSWORD_HASHING_MEMORY_MB,
  },
  // The owner's email, where a reset link goes: changing it takes the current password.
  { name: 'get-owner-email', method: 'GET', path: '/api/admin/email', access: 'admin', response: 'ownerEmailOnFile', table: 'read' },
  {
    name: 'set-owner-email',
    method: 'PUT',
    path: '/api/admin/email',
    access: 'admin',
    body: 'ownerEmailSchema',
    response: 'ownerEmail',
    table: 'readwrite',
    memoryMb: PASSWORD_HASHING_MEMORY_MB,
  },
  // "Forgot password?": a single-use link by mail (the same answer whether or not the address is
  // known, throttled like a login), then the new password with the link's secret.
  {
    name: 'request-password-reset',
    method: 'POST',
    path: '/api/auth/password-reset',
    access: 'public',
    body: 'passwordResetRequestSchema',
    response: 'message',
    table: 'readwrite',
  },
  {
    name: 'reset-password',
    method: 'POST',
    path: '/api/auth/password-reset/complete',
    access: 'public',
    body: 'passwordResetCompleteSchema',
    response: 'passwordReset',
    table: 'readwrite',
    memoryMb: PASSWORD_HASHING_MEMORY_MB,
  },
  {
    name: 'dev-login',
    method: 'POST',
    path: '/api/auth/dev-login',
    access: 'public',
    body: 'devLoginSchema',
    response: 'devLogin',
    table: 'readwrite',
    localRuntimeOnly: true,
  },
  { name: 'list-pending-workers', method: 'GET', path: '/api/admin/workers/pending', access: 'admin', query: 'applicationPage', response: 'pendingWorkers', table: 'read' },
  { name: 'list-workers', method: 'GET', path: '/api/admin/workers/all', access: 'admin', query: 'workerPage', response: 'workers', table: 'read' },
  // The owner's jobs: a page of the table (filters), "Needs attention", one job with its timeline, and the owner's moves on it.
  { name: 'list-jobs', method: 'GET', path: '/api/admin/jobs/all', access: 'admin', query: 'jobAdminFilters', response: 'jobAdminPage', table: 'read' },
  {
    name: 'list-jobs-needing-attention',
    method: 'GET',
    path: '/api/admin/jobs/attention',
    access: 'admin',
    query: 'jobAttentionPage',
    response: 'jobAdminPage',
    table: 'read',
  },
  { name: 'get-admin-job', method: 'GET', path: '/api/admin/jobs/{id}', access: 'admin', params: 'id', missing: NO_SUCH_JOB, response: 'jobAdminDetail', table: 'read' },
  {
    name: 'reoffer-job',
    method: 'POST',
    path: '/api/admin/jobs/{id}/reoffer',
    access: 'admin',
    params: 'id',
    missing: NO_SUCH_JOB,
    response: 'jobAdminDetail',
    table: 'readwrite',
    scheduler: true,
    realtime: true,
  },
  {
    name: 'offer-job-to-worker',
    method: 'POST',
    path: '/api/admin/jobs/{id}/offer',
    access: 'admin',
    params: 'id',
    body: 'adminJobOfferSchema',
    missing: NO_SUCH_JOB,
    response: 'jobAdminDetail',
    table: 'readwrite',
    scheduler: true,
    realtime: true,
  },
  {
    name: 'cancel-job',
    method: 'POST',
    path: '/api/admin/jobs/{id}/cancel',
    access: 'admin',
    params: 'id',
    body: 'adminJobCancelSchema',
    missing: NO_SUCH_JOB,
    response: 'jobAdminDetail',
    table: 'readwrite',
    scheduler: true,
    realtime: true,
  },
  {
    name: 'list-available-workers',
    method: 'GET',
    path: '/api/admin/workers/available',
    access: 'admin',
    query: 'availableWorkersQuery',
    response: 'availableWorkerPage',
    table: 'read',
  },
  { name: 'get-analytics', method: 'GET', path: '/api/admin/analytics', access: 'admin', query: 'analyticsRange', response: 'analytics', table: 'read' },
  { name: 'list-pro-figures', method: 'GET', path: '/api/admin/analytics/pros', access: 'admin', query: 'proFiguresPage', response: 'proFiguresPage', table: 'read' },
  // CSV files of a range's jobs and payments (text/csv, a file name to save them under).
  { name: 'export-jobs', method: 'GET', path: '/api/admin/exports/jobs', access: 'admin', query: 'exportRange', response: 'csv', table: 'read' },
  { name: 'export-payments', method: 'GET', path: '/api/admin/exports/payments', access: 'admin', query: 'exportRange', response: 'csv', table: 'read' },
  {
    name: 'approve-worker',
    method: 'POST',
    path: '/api/admin/workers/{id}/approve',
    access: 'admin',
    params: 'id',
    missing: { status: 404, message: 'No application with this id.' },
    response: 'workerApproved',
    table: 'readwrite',
    // The applicant's open review screen turns into the dashboard at once, and they are notified.
    realtime: true,
  },
  {
    name: 'reject-worker',
    method: 'POST',
    path: '/api/admin/workers/{id}/reject',
    access: 'admin',
    params: 'id',
    body: 'workerRejectionSchema',
    missing: { status: 404, message: 'No application with this id.' },
    response: 'message',
    table: 'readwrite',
    realtime: true,
  },
  {
    name: 'terminate-worker',
    method: 'POST',
    path: '/api/admin/workers/{id}/terminate',
    access: 'admin',
    params: 'id',
    body: 'workerStatusChangeSchema',
    missing: NO_SUCH_WORKER,
    response: 'workerAdmin',
    table: 'readwrite',
    realtime: true,
  },
  {
    name: 'suspend-worker',
    method: 'POST',
    path: '/api/admin/workers/{id}/suspend',
    access: 'admin',
    params: 'id',
    body: 'workerStatusChangeSchema',
    missing: NO_SUCH_WORKER,
    response: 'workerAdmin',
    table: 'readwrite',
    realtime: true,
  },
  {
    name: 'reinstate-worker',
    method: 'POST',
    path: '/api/admin/workers/{id}/reinstate',
    access: 'admin',
    params: 'id',
    body: 'workerStatusChangeSchema',
    missing: NO_SUCH_WORKER,
    response: 'workerAdmin',
    table: 'readwrite',
    realtime: true,
  },
  {
    name: 'list-worker-strikes',
    method: 'GET',
    path: '/api/admin/workers/{id}/strikes',
    access: 'admin',
    params: 'id',
    query: 'strikePage',
    missing: NO_SUCH_WORKER,
    response: 'strikePage',
    table: 'read',
  },
  { name: 'list-strike-appeals', method: 'GET', path: '/api/admin/strikes/appeals', access: 'admin', query: 'strikePage', response: 'strikePage', table: 'read' },
  {
    name: 'void-strike',
    method: 'POST',
    path: '/api/admin/strikes/{id}/void',
    access: 'admin',
    params: 'id',
    body: 'strikeDecisionSchema',
    missing: NO_SUCH_STRIKE,
    response: 'strike',
    table: 'readwrite',
    realtime: true,
  },
  {
    name: 'uphold-strike',
    method: 'POST',
    path: '/api/admin/strikes/{id}/uphold',
    access: 'admin',
    params: 'id',
    body: 'strikeDecisionSchema',
    missing: NO_SUCH_STRIKE,
    response: 'strike',
    table: 'readwrite',
    realtime: true,
  },
  {
    name: 'get-application-document',
    method: 'GET',
    path: '/api/admin/applications/{id}/documents/{document}',
    access: 'admin',
    params: 'applicationDocument',
    missing: { status: 404, message: 'No such document for this application.' },
    response: 'presignedDownload',
    table: 'read',
    uploads: 'review',
  },
  {
    name: 'list-company-applications',
    method: 'GET',
    path: '/api/admin/company-applications',
    access: 'admin',
    query: 'applicationPage',
    response: 'companyApplications',
    table: 'read',
  },
  {
    name: 'approve-company-application',
    method: 'POST',
    path: '/api/admin/company-applications/{id}/approve',
    access: 'admin',
    params: 'id',
    body: 'companyApprovalSchema',
    missing: { status: 404, message: 'No company application with this id.' },
    response: 'companyApplicationDecision',
    table: 'readwrite',
  },
  {
    name: 'reject-company-application',
    method: 'POST',
    path: '/api/admin/company-applications/{id}/reject',
    access: 'admin',
    params: 'id',
    body: 'companyRejectionSchema',
    missing: { status: 404, message: 'No company application with this id.' },
    response: 'companyApplicationDecision',
    table: 'readwrite',
  },

  // Applications
  {
    name: 'create-upload',
    method: 'POST',
    path: '/api/upload',
    access: 'public',
    body: 'uploadRequestSchema',
    response: 'presignedUpload',
    table: 'none',
    uploads: 'write',
  },
  {
    name: 'submit-worker-application',
    method: 'POST',
    path: '/api/worker-applications',
    access: 'public',
    body: 'workerApplicationSchema',
    response: 'applicationReceived',
    // Tells the owner (functions/owner/owner-events.ts): stores a notification and publishes it.
    table: 'readwrite',
    realtime: true,
    uploads: 'file',
  },
  {
    name: 'apply-worker',
    method: 'POST',
    path: '/api/workers/apply',
    access: 'public',
    body: 'workerApplyLegacySchema',
    response: 'applicationReceived',
    // Tells the owner (functions/owner/owner-events.ts): stores a notification and publishes it.
    table: 'readwrite',
    realtime: true,
    uploads: 'file',
  },
  {
    name: 'submit-company-application',
    method: 'POST',
    path: '/api/company-applications',
    access: 'public',
    body: 'companyApplicationSchema',
    response: 'applicationReceived',
    // Tells the owner (functions/owner/owner-events.ts): stores a notification and publishes it.
    table: 'readwrite',
    realtime: true,
    uploads: 'file',
  },
  {
    // The 22-character id in the link is the company's only credential: unguessable, and the
    // answer holds nothing a forwarded link should not show.
    name: 'get-company-application-status',
    method: 'GET',
    path: '/api/company-applications/{id}',
    access: 'public',
    params: 'id',
    missing: { status: 404, message: 'No company application with this id.' },
    response: 'companyApplicationStatus',
    table: 'read',
  },

  // Worker accounts
  {
    name: 'login-worker',
    method: 'POST',
    path: '/api/workers/login',
    access: 'public',
    body: 'workerLoginSchema',
    response: 'workerSession',
    table: 'readwrite',
    memoryMb: PASSWORD_HASHING_MEMORY_MB,
  },
  // A pro account's password is set with a single-use link mailed to the application's address
  // (the same answer whether or not the address applied, throttled like a login).
  {
    name: 'request-worker-account-link',
    method: 'POST',
    path: '/api/workers/account-link',
    access: 'public',
    body: 'workerAccountLinkRequestSchema',
    response: 'message',
    table: 'readwrite',
  },
  {
    name: 'check-worker-account-link',
    method: 'POST',
    path: '/api/workers/account-link/check',
    access: 'public',
    body: 'workerAccountLinkCheckSchema',
    response: 'workerAccountLink',
    table: 'read',
  },
  {
    name: 'create-worker-account',
    method: 'POST',
    path: '/api/workers/create-account',
    access: 'public',
    body: 'workerCreateAccountSchema',
    response: 'workerSession',
    table: 'readwrite',
    memoryMb: PASSWORD_HASHING_MEMORY_MB,
  },
  { name: 'logout-worker', method: 'POST', path: '/api/workers/logout', access: 'applicant', response: 'ok', table: 'write' },
  { name: 'get-worker-self', method: 'GET', path: '/api/workers/me', access: 'applicant', response: 'workerSelf', table: 'read', uploads: 'read' },
  // The applicant's review screen: their application's summary and, once decided, the decision.
  {
    name: 'get-worker-application',
    method: 'GET',
    path: '/api/workers/me/application',
    access: 'applicant',
    response: 'workerApplicationStatus',
    table: 'read',
  },
  // Any worker: a suspended pro reads their record and appeals; that is what suspension leaves them.
  { name: 'get-worker-strikes', method: 'GET', path: '/api/workers/strikes', access: 'worker', response: 'workerStrikeRecord', table: 'read' },
  {
    name: 'appeal-strike',
    method: 'POST',
    path: '/api/workers/strikes/{id}/appeal',
    access: 'worker',
    params: 'id',
    body: 'strikeAppealSchema',
    missing: NO_SUCH_STRIKE,
    response: 'strike',
    table: 'readwrite',
    realtime: true,
  },
  {
    name: 'update-worker-profile',
    method: 'PUT',
    path: '/api/workers/me',
    access: 'active-worker',
    body: 'workerProfileSchema',
    response: 'workerSelf',
    table: 'readwrite',
    uploads: 'read',
  },
  {
    name: 'set-availability',
    method: 'POST',
    path: '/api/workers/availability',
    access: 'active-worker',
    body: 'availabilitySchema',
    response: 'availability',
    table: 'readwrite',
    // Going on call offers the pro a job nearby that found nobody in the last half hour.
    scheduler: true,
    realtime: true,
  },
  {
    name: 'clock-in',
    method: 'POST',
    path: '/api/workers/clock-in',
    access: 'active-worker',
    response: 'clockedIn',
    table: 'readwrite',
    scheduler: true,
    realtime: true,
  },
  { name: 'clock-out', method: 'POST', path: '/api/workers/clock-out', access: 'active-worker', response: 'clockedOut', table: 'readwrite' },
  {
    name: 'set-worker-type',
    method: 'POST',
    path: '/api/workers/worker-type',
    access: 'active-worker',
    body: 'workerTypeSchema',
    response: 'workerTypeSet',
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
  // "Has your pro arrived?": the customer's answer to a Mark Arrived that no location proved.
  {
    name: 'confirm-arrival',
    method: 'POST',
    path: '/api/requests/{id}/arrival',
    access: 'customer',
    params: 'id',
    missing: { status: 404, message: 'We could not find this request among yours.' },
    body: 'arrivalAnswerSchema',
    response: 'serviceRequest',
    table: 'readwrite',
    scheduler: true,
    realtime: true,
  },
  // What the payment-success page shows: asked of the server, never taken from the address bar.
  {
    name: 'get-payment-confirmation',
    method: 'GET',
    path: '/api/requests/{id}/payment',
    access: 'public',
    params: 'id',
    missing: { status: 404, message: 'We could not find this job.' },
    query: 'paymentConfirmation',
    response: 'paymentConfirmation',
    table: 'read',
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
  // Distance bands from the caller's saved service address only; rationed per network address.
  {
    name: 'list-worker-profiles',
    method: 'GET',
    path: '/api/worker-profiles',
    access: 'public',
    query: 'workerProfiles',
    response: 'workerListings',
    table: 'readwrite',
    uploads: 'read',
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
  // Public and unauthenticated: they read and write the geocode cache and nothing else in the table.
  {
    name: 'search-addresses',
    method: 'GET',
    path: '/api/geocode',
    access: 'public',
    query: 'addressSearch',
    response: 'geocode',
    table: geocodeCacheOnly,
  },
  {
    name: 'reverse-geocode',
    method: 'GET',
    path: '/api/geocode/reverse',
    access: 'public',
    query: 'coordinates',
    response: 'geocode',
    table: geocodeCacheOnly,
  },

  // Workers' jobs
  {
    name: 'set-worker-location',
    method: 'POST',
    path: '/api/workers/location',
    access: 'active-worker',
    body: 'workerLocationSchema',
    response: 'noContent',
    table: 'readwrite',
    scheduler: true,
    realtime: true,
  },
  {
    name: 'list-job-offers',
    method: 'GET',
    path: '/api/jobs/offers/{workerId}',
    access: 'active-worker',
    params: 'workerId',
    missing: OWN_JOBS_ONLY,
    response: 'jobOffers',
    table: 'read',
  },
  {
    name: 'accept-job',
    method: 'POST',
    path: '/api/jobs/accept/{jobId}',
    access: 'active-worker',
    params: 'jobId',
    missing: JOB_NOT_FOUND,
    body: 'jobActionSchema',
    response: 'workerJob',
    table: 'readwrite',
    scheduler: true,
    realtime: true,
  },
  {
    name: 'decline-job',
    method: 'POST',
    path: '/api/jobs/decline/{jobId}',
    access: 'active-worker',
    params: 'jobId',
    missing: JOB_NOT_FOUND,
    body: 'jobActionSchema',
    response: 'noContent',
    table: 'readwrite',
    scheduler: true,
    realtime: true,
  },
  {
    name: 'list-worker-jobs',
    method: 'GET',
    path: '/api/jobs/worker/{workerId}',
    access: 'active-worker',
    params: 'workerId',
    missing: OWN_JOBS_ONLY,
    response: 'workerJobs',
    table: 'read',
  },
  {
    name: 'list-completed-jobs',
    method: 'GET',
    path: '/api/jobs/completed/{workerId}',
    access: 'active-worker',
    params: 'workerId',
    missing: OWN_JOBS_ONLY,
    response: 'completedJobs',
    table: 'read',
  },
  {
    name: 'get-job',
    method: 'GET',
    path: '/api/jobs/{id}',
    access: 'active-worker',
    params: 'id',
    missing: JOB_NOT_FOUND,
    response: 'workerJob',
    table: 'read',
  },
  {
    name: 'set-job-state',
    method: 'POST',
    path: '/api/jobs/{id}/state',
    access: 'active-worker',
    params: 'id',
    missing: JOB_NOT_FOUND,
    body: 'jobStateSchema',
    response: 'workerJob',
    table: 'readwrite',
    scheduler: true,
    realtime: true,
  },
  {
    name: 'complete-job',
    method: 'POST',
    path: '/api/jobs/{id}/complete',
    access: 'active-worker',
    params: 'id',
    missing: JOB_NOT_FOUND,
    body: 'jobActionSchema',
    response: 'workerJob',
    table: 'readwrite',
    realtime: true,
  },

  // Reviews: the customer of a completed job, once (the anonymous customer cookie).
  {
    name: 'create-worker-review',
    method: 'POST',
    path: '/api/worker-reviews',
    access: 'customer',
    body: 'workerReviewSchema',
    response: 'review',
    table: 'readwrite',
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

  // Verification, invoices and payments. Invoices are read by whoever they belong to: the customer
  // (cookie), the worker (token) or the owner (session); 'anyone' identifies which, the handlers scope them.
  {
    name: 'submit-client-verification',
    method: 'POST',
    path: '/api/client-verification',
    access: 'customer',
    body: 'clientVerificationSchema',
    response: 'clientVerification',
    table: 'readwrite',
    realtime: true,
  },
  {
    name: 'create-invoice',
    method: 'POST',
    path: '/api/jobs/{id}/invoice',
    access: 'active-worker',
    params: 'id',
    missing: JOB_NOT_FOUND,
    body: 'createInvoiceSchema',
    response: 'invoice',
    table: 'readwrite',
    realtime: true,
  },
  { name: 'list-invoices', method: 'GET', path: '/api/invoices', access: 'anyone', query: 'invoicePage', response: 'invoices', table: 'read' },
  {
    name: 'get-invoice',
    method: 'GET',
    path: '/api/invoices/{id}',
    access: 'anyone',
    params: 'id',
    missing: { status: 404, message: 'Invoice not found' },
    response: 'invoice',
    table: 'read',
  },
  {
    name: 'get-request-invoice',
    method: 'GET',
    path: '/api/requests/{id}/invoice',
    access: 'customer',
    params: 'id',
    missing: { status: 404, message: 'Request not found' },
    response: 'invoice',
    table: 'read',
  },
  // A crew's one bill: a line per pro, verified once and paid by one charge (functions/payments/crew-bills.ts).
  {
    name: 'get-request-bill',
    method: 'GET',
    path: '/api/requests/{id}/bill',
    access: 'customer',
    params: 'id',
    missing: { status: 404, message: 'Request not found' },
    response: 'crewBill',
    table: 'read',
  },
  {
    name: 'verify-request-bill',
    method: 'POST',
    path: '/api/requests/{id}/bill/verify',
    access: 'customer',
    params: 'id',
    missing: { status: 404, message: 'Request not found' },
    response: 'crewBill',
    table: 'readwrite',
  },
  {
    name: 'create-bill-checkout',
    method: 'POST',
    path: '/api/requests/{id}/bill/checkout',
    access: 'customer',
    params: 'id',
    missing: { status: 404, message: 'Request not found' },
    response: 'checkoutSession',
    table: 'readwrite',
    stripe: true,
  },
  {
    name: 'verify-work',
    method: 'POST',
    path: '/api/verify-work/{id}',
    access: 'customer',
    params: 'id',
    missing: { status: 404, message: 'Invoice not found' },
    response: 'invoice',
    table: 'readwrite',
  },
  {
    name: 'create-checkout-session',
    method: 'POST',
    path: '/api/create-checkout-session',
    access: 'customer',
    body: 'checkoutSessionSchema',
    response: 'checkoutSession',
    table: 'readwrite',
    stripe: true,
  },
  {
    name: 'handle-stripe-webhook',
    method: 'POST',
    path: '/api/stripe/webhook',
    access: 'public',
    response: 'webhookReceipt',
    table: 'readwrite',
    stripe: true,
    rawBody: true,
    realtime: true,
  },
  // Connected accounts' events (account.updated) come to an endpoint of their own, with its own signing secret.
  {
    name: 'handle-stripe-connect-webhook',
    method: 'POST',
    path: '/api/stripe/connect-webhook',
    access: 'public',
    response: 'webhookReceipt',
    table: 'readwrite',
    stripe: true,
    rawBody: true,
    realtime: true,
  },
  {
    name: 'get-payout-status',
    method: 'GET',
    path: '/api/workers/payouts',
    access: 'active-worker',
    response: 'payoutStatus',
    table: 'readwrite',
    stripe: true,
  },
  {
    name: 'start-payout-onboarding',
    method: 'POST',
    path: '/api/workers/payouts/onboard',
    access: 'active-worker',
    response: 'payoutOnboarding',
    table: 'readwrite',
    stripe: true,
  },

  // Web push. Subscriptions belong to whoever is signed in: a worker's token, the owner's session or
  // the customer cookie ('anyone' identifies which; the handlers refuse the anonymous). A renewal
  // proves itself by the old endpoint instead, so it stays 'public'.
  {
    name: 'get-vapid-public-key',
    method: 'GET',
    path: '/api/push/vapid-public-key',
    access: 'public',
    response: 'vapidPublicKey',
    table: 'none',
    push: true,
  },
  {
    name: 'subscribe-push',
    method: 'POST',
    path: '/api/push/subscribe',
    access: 'anyone',
    body: 'pushSubscribeSchema',
    response: 'success',
    table: 'readwrite',
  },
  {
    name: 'unsubscribe-push',
    method: 'POST',
    path: '/api/push/unsubscribe',
    access: 'anyone',
    body: 'pushEndpointSchema',
    response: 'success',
    table: 'readwrite',
  },
  {
    name: 'verify-push-subscription',
    method: 'POST',
    path: '/api/push/verify-subscription',
    access: 'anyone',
    body: 'pushEndpointSchema',
    response: 'pushValid',
    table: 'read',
  },
  {
    name: 'renew-push-subscription',
    method: 'POST',
    path: '/api/push/renew',
    access: 'public',
    body: 'pushRenewSchema',
    response: 'success',
    table: 'readwrite',
  },
  { name: 'send-test-push', method: 'POST', path: '/api/push/test', access: 'anyone', response: 'testPushSent', table: 'readwrite', push: true },
  // The notification centre's history (also sent on connect as notifications:batch).
  { name: 'list-notifications', method: 'GET', path: '/api/notifications', access: 'anyone', response: 'notifications', table: 'read' },

  // Worker compliance documents. A worker reaches only their own; the owner every one.
  {
    name: 'list-document-categories',
    method: 'GET',
    path: '/api/documents/categories',
    access: 'public',
    response: 'documentCategories',
    table: 'none',
  },
  {
    name: 'list-documents',
    method: 'GET',
    path: '/api/documents',
    access: 'worker',
    query: 'documentFilters',
    response: 'documentList',
    table: 'read',
  },
  {
    name: 'list-expiring-documents',
    method: 'GET',
    path: '/api/documents/expiring/{days}',
    access: 'worker',
    params: 'days',
    response: 'documentList',
    table: 'read',
  },
  {
    name: 'create-document-upload',
    method: 'POST',
    path: '/api/documents/upload',
    access: 'active-worker',
    body: 'documentUploadSchema',
    response: 'documentUploadTicket',
    table: 'readwrite',
    documents: ['upload'],
  },
  {
    name: 'confirm-document-upload',
    method: 'POST',
    path: '/api/documents/uploads/{uploadId}/confirm',
    access: 'active-worker',
    params: 'uploadId',
    missing: { status: 404, message: 'No such upload, or it is more than an hour old. Upload the file again.' },
    response: 'document',
    table: 'readwrite',
    // Reads the upload, writes the checked bytes under documents/, deletes the upload (and its own
    // copy when a concurrent confirm of the same upload won).
    documents: ['read-upload', 'delete-upload', 'write', 'delete'],
    // A document that needs review tells the owner (functions/owner/owner-events.ts).
    realtime: true,
  },
  {
    name: 'delete-document',
    method: 'DELETE',
    path: '/api/documents/{id}',
    access: 'active-worker',
    params: 'id',
    missing: NO_SUCH_DOCUMENT,
    response: 'success',
    table: 'readwrite',
    documents: ['read', 'delete', 'retain'],
  },
  {
    name: 'get-document-download',
    method: 'GET',
    path: '/api/documents/{id}/download',
    access: 'worker',
    params: 'id',
    missing: NO_SUCH_DOCUMENT,
    query: 'documentDownload',
    response: 'documentDownload',
    table: 'readwrite',
    documents: ['read'],
  },
  {
    name: 'list-all-documents',
    method: 'GET',
    path: '/api/admin/documents',
    access: 'admin',
    query: 'adminDocumentFilters',
    response: 'adminDocumentPage',
    table: 'read',
  },
  {
    name: 'get-worker-compliance',
    method: 'GET',
    path: '/api/admin/workers/{id}/documents',
    access: 'admin',
    params: 'id',
    missing: { status: 404, message: 'No such worker.' },
    response: 'workerCompliance',
    table: 'read',
  },
  {
    name: 'list-compliance',
    method: 'GET',
    path: '/api/admin/documents/compliance',
    access: 'admin',
    query: 'compliancePage',
    response: 'compliance',
    table: 'read',
  },
  {
    name: 'review-document',
    method: 'POST',
    path: '/api/admin/documents/{id}/review',
    access: 'admin',
    params: 'id',
    missing: NO_SUCH_DOCUMENT,
    body: 'documentReviewSchema',
    response: 'document',
    table: 'readwrite',
    realtime: true,
  },
  {
    name: 'get-admin-document-download',
    method: 'GET',
    path: '/api/admin/documents/{id}/download',
    access: 'admin',
    params: 'id',
    missing: NO_SUCH_DOCUMENT,
    query: 'documentDownload',
    response: 'documentDownload',
    table: 'readwrite',
    documents: ['read'],
  },
] as const satisfies readonly (RouteDef & { response: ResponseSchemaName })[];

/**
 * Functions that EventBridge Scheduler invokes, listed like the routes. Each
 * is functions/<name>.ts with a sample event in events/<name>.json; the schedule's input is its event.
 */
export interface TimerDef {
  name: string;
  table: TableGrant;
  /** Schedules further timers (the next round of offers). */
  scheduler?: boolean;
}

/**
 * The WebSocket API of /ws: one function per route key. `$connect`
 * authenticates, `$disconnect` forgets, `$default` takes every client frame (shared/realtime.ts).
 */
export interface SocketRouteDef {
  name: string;
  routeKey: '$connect' | '$disconnect' | '$default';
  table: TableGrant;
}

export const socketRoutes = [
  { name: 'connect-socket', routeKey: '$connect', table: 'readwrite' },
  { name: 'disconnect-socket', routeKey: '$disconnect', table: 'readwrite' },
  { name: 'handle-socket-message', routeKey: '$default', table: 'readwrite' },
] as const satisfies readonly SocketRouteDef[];

/**
 * Functions run on a recurring schedule (EventBridge Scheduler `cron()` schedules in the cloud; the
 * local runtime fires them at the same times, infra/local/stack.ts). Each is functions/<name>.ts
 * with a sample event in events/<name>.json, which is also the schedule's input.
 */
export type RecurringDef = {
  name: string;
  /** An EventBridge Scheduler cron expression, in UTC. */
  cron: string;
  table: TableGrant;
  /** Notifies people: gets WEBSOCKET_ENDPOINT and execute-api:ManageConnections. */
  realtime?: boolean;
  /** Rights on the bucket's documents/ prefix, as for routes. */
  documents?: readonly DocumentGrant[];
  /** Sends mail through SES: gets who mail is from, the configuration set and ses:SendEmail on them alone. */
  mail?: boolean;
  description: string;
} & (
  | /** The same time as `cron`, for the local runtime: hour and minute UTC, every day. */
  { dailyAtUtc: { hour: number; minute: number }; everyMinutes?: never }
  /** The same period as `cron`, for the local runtime: every so many minutes. */
  | { everyMinutes: number; dailyAtUtc?: never }
);

export const recurring = [
  {
    // Expiry reminders 30 and 7 days before, expired documents marked, offers paused.
    name: 'expire-documents',
    cron: 'cron(15 6 * * ? *)',
    dailyAtUtc: { hour: 6, minute: 15 },
    table: 'readwrite',
    realtime: true,
    description: 'Daily: marks expired compliance documents, reminds workers 30 and 7 days ahead, pauses offers',
  },
  {
    // The files of document uploads: abandoned, or posted again after their confirm.
    name: 'purge-document-uploads',
    cron: 'cron(45 6 * * ? *)',
    dailyAtUtc: { hour: 6, minute: 45 },
    table: 'readwrite',
    documents: ['delete-upload'],
    description: 'Daily: deletes the files of compliance document uploads handed out over an hour ago',
  },
  {
    // The owner's morning mail: yesterday's figures and what waits for them (queued in the outbox).
    name: 'send-daily-summary',
    cron: 'cron(0 7 * * ? *)',
    dailyAtUtc: { hour: 7, minute: 0 },
    table: 'readwrite',
    description: "Daily: mails the owner yesterday's jobs and money and what waits for their review",
  },
  {
    // The outbox mail the stream did not send: a delivery lost, a sender that died holding its claim.
    name: 'sweep-mail-outbox',
    cron: 'cron(0/2 * * * ? *)',
    everyMinutes: 2,
    // The outbox items, their index of unsent mail and the suppression marks, nothing else of the table.
    table: { access: 'readwrite', partitionKeys: ['MAIL#*', 'MAILQ#*', 'MAIL_SUPPRESSED#*'], indexes: true },
    mail: true,
    description: 'Every 2 minutes: sends the outbox mail the table stream did not (a lost delivery, a sender that died)',
  },
] as const satisfies readonly RecurringDef[];

export const timers = [
  { name: 'expire-offer', table: 'readwrite', scheduler: true },
  { name: 'enforce-arrival', table: 'readwrite', scheduler: true },
  { name: 'release-scheduled-job', table: 'readwrite', scheduler: true },
  { name: 'send-job-reminder', table: 'readwrite', scheduler: false },
] as const satisfies readonly TimerDef[];

export type TimerName = (typeof timers)[number]['name'];

/**
 * Functions fed by the table's stream (DynamoDB Streams, new images), each with the filter that
 * picks its records: AWS applies it in the event source mapping, the local runtime applies the
 * same pattern (infra/local/dynamo-stream.ts). The filter is an EventBridge-style pattern over the
 * stream record: nested objects, and lists of the accepted values.
 */
export interface StreamConsumerDef {
  name: string;
  table: TableGrant;
  filter: Record<string, unknown>;
  /** Sends web push: gets the VAPID keys. */
  push?: boolean;
  /** Sends mail through SES: gets who mail is from, the configuration set and ses:SendEmail on them alone. */
  mail?: boolean;
}

export const streamConsumers = [
  {
    // Urgent notifications (a job offer, work to verify, a strike) also go out as web push, off the
    // path of the request that caused them: the stored notification is the outbox.
    name: 'deliver-push',
    table: 'readwrite',
    push: true,
    filter: {
      eventName: ['INSERT'],
      dynamodb: { NewImage: { entity: { S: ['notification'] }, priority: { S: ['high', 'critical'] } } },
    },
  },
  {
    // Mail is sent after the change it tells about is stored: the outbox item written with that
    // change is what the stream hands over (functions/mail/send-mail.ts), so no user's call waits on SES.
    name: 'send-mail',
    // Its outbox items and the suppression marks, nothing else of the table.
    table: { access: 'readwrite', partitionKeys: ['MAIL#*', 'MAIL_SUPPRESSED#*'] },
    mail: true,
    filter: {
      eventName: ['INSERT'],
      dynamodb: { NewImage: { entity: { S: ['outbound-mail'] } } },
    },
  },
  {
    // The owner's figures are counted after the changes they count: each change writes a tally of
    // its own, which this adds into the stats items a batch at a time (functions/owner/count-stats.ts), so
    // no user's call writes an item that every booking touches.
    name: 'count-stats',
    // The tallies it deletes and the stats items it adds them to, nothing else of the table.
    table: { access: 'readwrite', partitionKeys: [keys.tally('*').pk, keys.stats().pk] },
    filter: {
      eventName: ['INSERT'],
      dynamodb: { NewImage: { entity: { S: ['tally'] } } },
    },
  },
] as const satisfies readonly StreamConsumerDef[];

/** The routes the CDK stack deploys, on every stage: all but the local runtime's own (dev-login). */
export const deployedRoutes: readonly RouteDef[] = (routes as readonly RouteDef[]).filter((r) => !r.localRuntimeOnly);

export type RouteName = (typeof routes)[number]['name'];

export type RouteOf<N extends RouteName> = Extract<(typeof routes)[number], { name: N }>;

/** The names in a path template: "/api/jobs/{id}/state" gives "id". */
export type PathParamNames<P extends string> = P extends `${string}{${infer K}}${infer Rest}` ? K | PathParamNames<Rest> : never;

/**
 * What a route's path parameters are, as the handler receives them (after the stack checked them):
 * the params schema's output where the manifest names one, else a string per `{name}` in the path.
 */
export type ParamsOf<N extends RouteName> =
  RouteOf<N> extends { params: infer S extends ParamSchemaName }
    ? z.output<ParamSchemas[S]>
    : { [K in PathParamNames<RouteOf<N>['path']>]: string };

/**
 * A route's query string, parsed (numbers as numbers): what the handler receives, and what a client
 * sends (each value as String(value)). Routes without a query schema take none: `undefined`.
 */
export type QueryOf<N extends RouteName> =
  RouteOf<N> extends { query: infer S extends QuerySchemaName } ? z.output<QuerySchemas[S]> : undefined;

/** A route's query string as a client sends it (the schema's input: values with defaults optional). */
export type QueryInputOf<N extends RouteName> =
  RouteOf<N> extends { query: infer S extends QuerySchemaName } ? z.input<QuerySchemas[S]> : undefined;

/** A route's path parameters as a client sends them (strings, before the stack checks them). */
export type ParamsInputOf<N extends RouteName> =
  RouteOf<N> extends { params: infer S extends ParamSchemaName }
    ? z.input<ParamSchemas[S]>
    : { [K in PathParamNames<RouteOf<N>['path']>]: string };

/** A route's JSON body as a client sends it (the schema's input); `undefined` for routes without one. */
export type BodyOf<N extends RouteName> =
  RouteOf<N> extends { body: infer S extends BodySchemaName } ? z.input<BodySchemas[S]> : undefined;

/** The body of a route's 2xx answer: its response schema's output (`undefined` for a 204). */
export type ResponseOf<N extends RouteName> =
  RouteOf<N> extends { response: infer S extends ResponseSchemaName } ? z.output<ResponseSchemas[S]> : unknown;

export function routeByName<N extends RouteName>(name: N): RouteOf<N> {
  const route = routes.find((r) => r.name === name);
  if (!route) throw new Error(`No route named "${name}" in shared/routes.ts`);
  return route as RouteOf<N>;
}

/** API Gateway route key, e.g. "GET /api/bookings/{id}". */
export function routeKey(route: Pick<RouteDef, 'method' | 'path'>): string {
  return `${route.method} ${route.path}`;
}
