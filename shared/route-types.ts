/**
 * The manifest's vocabulary: what an entry of a route, timer, socket route, recurring job or stream
 * consumer may say. The entries themselves are each area's slice (shared/<area>/routes.ts), joined
 * in shared/routes.ts.
 */
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
 * What a function may do in the single table: read, write or both, and only on the items its code
 * touches. Which items is not said here: the stack generates each function's partition-key patterns
 * from the declarations of the modules it loads (infra/table-grants.ts), so the grant follows the
 * code rather than a list kept beside it.
 */
export type TableGrant = TableAccess;
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

/** A worker's lists by worker id: an id that is not the caller's (or is no id at all). */
export const OWN_JOBS_ONLY = { status: 403, message: 'You can only act on your own jobs.' } as const;
/** A worker's job screens: a job id that names none of the worker's jobs. */
export const JOB_NOT_FOUND = { status: 404, message: 'Job not found. It may have been reassigned or it is not yours.' } as const;
export const NO_SUCH_DOCUMENT = { status: 404, message: 'No such document.' } as const;
export const NO_SUCH_JOB = { status: 404, message: 'No job with this id.' } as const;
export const NO_SUCH_WORKER = { status: 404, message: 'No worker with this id.' } as const;
export const NO_SUCH_STRIKE = { status: 404, message: 'No strike with this id.' } as const;

/**
 * Functions that EventBridge Scheduler invokes, listed like the routes. Each
 * is functions/<area>/<name>.ts with a sample event in events/<name>.json; the schedule's input is its event.
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

/**
 * Functions run on a recurring schedule (EventBridge Scheduler `cron()` schedules in the cloud; the
 * local runtime fires them at the same times, infra/local/stack.ts). Each is functions/<area>/<name>.ts
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

/**
 * An EventBridge-style pattern over a stream record (nested objects, and lists of the accepted
 * values): AWS applies it in the event source mapping, the local runtime applies the same pattern
 * (infra/local/dynamo-stream.ts).
 */
export type StreamFilter = Record<string, unknown>;

/**
 * The most readers the table's stream has: DynamoDB Streams serves at most two readers of a shard
 * at once before it throttles them, so each reader is one function fed by one event source mapping,
 * and the work that follows a change is grouped into at most this many of them.
 */
export const MAX_STREAM_READERS = 2;

/**
 * Functions fed by the table's stream (DynamoDB Streams, new images), each with the filters that
 * pick its records (a record matching any of them is handed over; a mapping takes at most five).
 */
export interface StreamConsumerDef {
  name: string;
  table: TableGrant;
  filters: readonly StreamFilter[];
  /** Sends web push: gets the VAPID keys. */
  push?: boolean;
  /** Sends mail through SES: gets who mail is from, the configuration set and ses:SendEmail on them alone. */
  mail?: boolean;
}
