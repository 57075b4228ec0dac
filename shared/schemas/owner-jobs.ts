import * as z from 'zod/mini';
import { categorySlugs } from '../categories';
import { jobStates } from '../domain/booking-status';
import { ID_PATTERN } from './id';
import { pageOf, pageQueryFields } from './page';

/**
 * The owner's jobs: one row per job in the table and on "Needs attention", the job page with its
 * timeline, the pros a job can be offered to, and the owner's actions on a job. Money in cents.
 */

/** Why a job is on "Needs attention", most urgent first as the screen orders them. */
export const attentionReasons = ['payment_failed', 'arrival_overdue', 'no_pro', 'offered_too_long'] as const;
export type AttentionReason = (typeof attentionReasons)[number];

/** A search still going after this long needs the owner: offers normally settle it in a few minutes. */
export const OFFERED_TOO_LONG_MINUTES = 10;

/** The job table's state filter: a job state, or `no_pro` (booked, its search ended with nobody). */
export const jobStateFilters = [...jobStates, 'no_pro'] as const;
export type JobStateFilter = (typeof jobStateFilters)[number];

export const CANCEL_MESSAGE_MAX = 500;
export const JOB_SEARCH_MAX = 100;

const person = z.strictObject({ id: z.string(), name: z.nullable(z.string()) });

export const jobAdminRow = z.strictObject({
  id: z.string(),
  /** The number screens show (what the customer tracks the job by). */
  number: z.string(),
  category: z.string(),
  service: z.string(),
  customerName: z.string(),
  address: z.string(),
  /** The pro's rate when they accepted; null until then. */
  hourlyRate: z.nullable(z.number()),
  state: z.enum(jobStates),
  /** How the search stands ('no_worker_available': it ended with nobody, whatever `state` says). */
  dispatch: z.string(),
  assignedPro: z.nullable(person),
  /** How many pros were offered it in the current search. */
  offersMade: z.number(),
  acceptedAt: z.nullable(z.string()),
  arriveBy: z.nullable(z.string()),
  arrivedAt: z.nullable(z.string()),
  startedAt: z.nullable(z.string()),
  endedAt: z.nullable(z.string()),
  totalHours: z.nullable(z.number()),
  invoiceId: z.nullable(z.string()),
  /** The invoice's payment: 'pending', 'processing', 'paid' or 'failed'; null without an invoice. */
  paymentStatus: z.nullable(z.string()),
  createdAt: z.string(),
  cancelledAt: z.nullable(z.string()),
  attention: z.nullable(z.enum(attentionReasons)),
});
export type JobAdminRow = z.infer<typeof jobAdminRow>;

export const jobAdminPage = pageOf(jobAdminRow);
export type JobAdminPage = z.infer<typeof jobAdminPage>;

export const jobTimelineEvent = z.strictObject({
  id: z.string(),
  type: z.string(),
  at: z.string(),
  actor: z.strictObject({ role: z.enum(['customer', 'worker', 'owner', 'system']), id: z.nullable(z.string()), name: z.nullable(z.string()) }),
  worker: z.nullable(person),
  detail: z.nullable(z.string()),
});
export type JobTimelineEvent = z.infer<typeof jobTimelineEvent>;

/** GET /api/admin/jobs/{id}: the row, what the table leaves out, the offers standing and every step. */
export const jobAdminDetail = z.strictObject({
  job: jobAdminRow,
  description: z.string(),
  customerPhone: z.string(),
  customerEmail: z.nullable(z.string()),
  cancelMessage: z.nullable(z.string()),
  openOffers: z.array(z.strictObject({ worker: person, expiresAt: z.string() })),
  /** What the owner may do now (the buttons the page shows). */
  canReoffer: z.boolean(),
  canOffer: z.boolean(),
  canCancel: z.boolean(),
  timeline: z.array(jobTimelineEvent),
});
export type JobAdminDetail = z.infer<typeof jobAdminDetail>;

/** A pro the owner may offer a job to: of its trade, on call, verified, active, holding no job. */
export const availableWorker = z.strictObject({
  id: z.string(),
  fullName: z.string(),
  categories: z.array(z.string()),
  hourlyRate: z.number(),
  strikes: z.number(),
});
export type AvailableWorker = z.infer<typeof availableWorker>;
export const availableWorkerPage = pageOf(availableWorker);

const blankAsAbsent = z.transform((value: string | undefined) => {
  const trimmed = value?.trim();
  return trimmed === '' ? undefined : trimmed;
});
const optionalChoice = <const T extends readonly [string, ...string[]]>(options: T, message: string) =>
  z.pipe(z.pipe(z.optional(z.string()), blankAsAbsent), z.optional(z.enum(options, { error: message })));
const DATE_MESSAGE = (name: string) => `${name} must be a date written YYYY-MM-DD.`;
const optionalDate = (name: string) =>
  z.pipe(z.pipe(z.optional(z.string()), blankAsAbsent), z.optional(z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, DATE_MESSAGE(name)))));
const TEXT_MESSAGE = `Search for at most ${JOB_SEARCH_MAX} characters.`;
const optionalText = z.pipe(z.pipe(z.optional(z.string()), blankAsAbsent), z.optional(z.string().check(z.maxLength(JOB_SEARCH_MAX, TEXT_MESSAGE))));
const CATEGORY_MESSAGE = `category must be a trade's slug, e.g. ${categorySlugs.slice(0, 3).join(', ')}.`;
/** A trade's slug: the screens offer the catalogue's; any other names an empty trade. */
const categoryPattern = /^[a-z0-9-]{1,40}$/;
const optionalCategory = z.pipe(z.pipe(z.optional(z.string()), blankAsAbsent), z.optional(z.string().check(z.regex(categoryPattern, CATEGORY_MESSAGE))));

/** GET /api/admin/jobs/all: the table's filters and page. */
export const jobAdminFilters = z.object({
  ...pageQueryFields,
  state: optionalChoice(jobStateFilters, `state must be one of: ${jobStateFilters.join(', ')}.`),
  category: optionalCategory,
  from: optionalDate('from'),
  to: optionalDate('to'),
  workerId: z.pipe(z.pipe(z.optional(z.string()), blankAsAbsent), z.optional(z.string().check(z.regex(ID_PATTERN, 'workerId must be the id of a pro.')))),
  customer: optionalText,
  search: optionalText,
});
export type JobAdminFilters = z.infer<typeof jobAdminFilters>;

/** GET /api/admin/jobs/attention: a page of the jobs that need the owner. */
export const jobAttentionPage = z.object({ ...pageQueryFields });

/** GET /api/admin/workers/available: the trade a job needs. */
export const availableWorkersQuery = z.object({
  ...pageQueryFields,
  category: z.pipe(z.pipe(z.optional(z.string()), blankAsAbsent), z.string({ error: CATEGORY_MESSAGE }).check(z.regex(categoryPattern, CATEGORY_MESSAGE))),
});

/** POST /api/admin/jobs/{id}/offer. */
export const adminJobOfferSchema = z.strictObject({
  workerId: z.string().check(z.regex(ID_PATTERN, 'Choose a pro from the list.')),
});

/** POST /api/admin/jobs/{id}/cancel: what the customer is told. */
export const adminJobCancelSchema = z.strictObject({
  message: z.pipe(
    z.string({ error: 'Write a message for the customer.' }),
    z.pipe(
      z.transform((raw: string) => raw.trim()),
      z.string().check(
        z.minLength(1, 'Write a message for the customer.'),
        z.maxLength(CANCEL_MESSAGE_MAX, `Keep the message to ${CANCEL_MESSAGE_MAX} characters.`),
      ),
    ),
  ),
});
