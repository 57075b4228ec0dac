import * as z from 'zod/mini';
import { bookingStatuses } from '../../domain/booking-status';
import { applicationStatuses } from '../application-rules';

/**
 * The answers about people and accounts: the owner, workers, applications, bookings, the
 * catalogue. Strict objects: a field no view names (an SSN, a password hash, a storage key) fails
 * the tests that check answers.
 */

const workerStatus = z.enum(['pending_review', 'active', 'suspended', 'terminated', 'rejected']);
const workerType = z.enum(['contract', 'independent']);

/** The worker's own view (GET /api/workers/me). Rates are cents. */
export const workerSelf = z.strictObject({
  id: z.string(),
  fullName: z.string(),
  email: z.string(),
  status: workerStatus,
  strikes: z.number(),
  isAvailable: z.boolean(),
  isClockedIn: z.boolean(),
  lastClockIn: z.nullable(z.string()),
  yearsExp: z.number(),
  categories: z.array(z.string()),
  hourlyRate: z.number(),
  workerType: z.nullable(workerType),
  profilePhotoUrl: z.nullable(z.string()),
  /** Required document categories (ids) whose document expired: no offers until a valid one is approved. */
  offersPausedFor: z.array(z.string()),
});
export type WorkerSelf = z.infer<typeof workerSelf>;

/** A worker's login or new account: their view and the bearer token the app sends from then on. */
export const workerSession = z.strictObject({ worker: workerSelf, token: z.string() });

/** The owner's view of a worker (GET /api/admin/workers/all). */
export const workerAdminView = z.strictObject({
  id: z.string(),
  fullName: z.string(),
  email: z.string(),
  phone: z.string(),
  createdAt: z.string(),
  yearsExp: z.number(),
  hourlyRate: z.number(),
  categories: z.array(z.string()),
  status: workerStatus,
  isAvailable: z.boolean(),
  strikes: z.number(),
  /** Why the owner (or the strike limit) last suspended, reinstated or terminated the worker. */
  statusReason: z.nullable(z.string()),
  statusChangedAt: z.nullable(z.string()),
});
export type WorkerAdminView = z.infer<typeof workerAdminView>;

const workerDocuments = ['idFront', 'idBack', 'selfie'] as const;
const companyDocuments = ['businessLicense', 'insuranceCertificate'] as const;

/** The owner's view of a pending worker application: no SSN, no storage keys. */
export const pendingWorkerView = z.strictObject({
  id: z.string(),
  fullName: z.string(),
  email: z.string(),
  phone: z.string(),
  address: z.string(),
  yearsExp: z.number(),
  categories: z.array(z.string()),
  hourlyRate: z.number(),
  workingHours: z.nullable(z.string()),
  availableSameDay: z.nullable(z.boolean()),
  submittedAt: z.string(),
  documents: z.array(z.enum(workerDocuments)),
});
export type PendingWorkerView = z.infer<typeof pendingWorkerView>;

/** The owner's view of a company application: documents by name, never their keys. */
export const companyApplicationView = z.strictObject({
  id: z.string(),
  companyName: z.string(),
  businessType: z.string(),
  contactPersonName: z.string(),
  phoneNumber: z.string(),
  emailAddress: z.string(),
  companyAddress: z.string(),
  einTaxId: z.nullable(z.string()),
  workerTypesNeeded: z.array(z.string()),
  typicalWorkerCount: z.string(),
  averageProjectDuration: z.string(),
  billingContactName: z.nullable(z.string()),
  billingContactEmail: z.nullable(z.string()),
  status: z.enum(applicationStatuses),
  submittedAt: z.string(),
  documents: z.array(z.enum(companyDocuments)),
});
export type CompanyApplicationView = z.infer<typeof companyApplicationView>;

/** The owner's decision on a company application, as the approve and reject calls answer it. */
export const companyApplicationDecision = z.strictObject({
  id: z.string(),
  status: z.enum(['approved', 'rejected']),
  reviewNotes: z.nullable(z.string()),
  reviewedAt: z.string(),
});
export type CompanyApplicationDecision = z.infer<typeof companyApplicationDecision>;

/**
 * What the company itself sees at its status link: no contact details, documents or tax id (the
 * link is the only credential, so it shows nothing a forwarded link should not). The owner's notes
 * only on a rejection: they explain it; an approval's notes are the owner's own.
 */
export const companyApplicationStatusView = z.strictObject({
  companyName: z.string(),
  submittedAt: z.string(),
  status: z.enum(applicationStatuses),
  reviewNotes: z.nullable(z.string()),
  reviewedAt: z.nullable(z.string()),
});
export type CompanyApplicationStatusView = z.infer<typeof companyApplicationStatusView>;

/**
 * An applicant's own application (GET /api/workers/me/application): what the review screen shows.
 * The owner's notes only with a rejection, which they explain.
 */
export const workerApplicationStatusView = z.strictObject({
  fullName: z.string(),
  categories: z.array(z.string()),
  submittedAt: z.string(),
  status: z.enum(applicationStatuses),
  reviewedAt: z.nullable(z.string()),
  reviewNotes: z.nullable(z.string()),
});
export type WorkerApplicationStatusView = z.infer<typeof workerApplicationStatusView>;

/**
 * The owner's view of a job. Every job carries keys.allJobs (gsi3), so one Query lists them all.
 * Rates in cents.
 */
export const jobAdminView = z.strictObject({
  id: z.string(),
  category: z.nullable(z.string()),
  customerName: z.nullable(z.string()),
  address: z.nullable(z.string()),
  description: z.nullable(z.string()),
  hourlyRate: z.nullable(z.number()),
  createdAt: z.nullable(z.string()),
  arrivedAt: z.nullable(z.string()),
  startedAt: z.nullable(z.string()),
  endedAt: z.nullable(z.string()),
  state: z.string(),
  acceptedBy: z.nullable(z.string()),
  totalHours: z.nullable(z.number()),
});
export type JobAdminView = z.infer<typeof jobAdminView>;

/** The owner's analytics (read from counters): its own module. */
export { analytics, type Analytics } from './analytics';

/** Who is signed in (GET /api/auth/me, and what logging in answers). */
export const currentUser = z.strictObject({
  id: z.string(),
  role: z.enum(['customer', 'worker', 'admin']),
  username: z.string(),
});
export type CurrentUser = z.infer<typeof currentUser>;

/**
 * What POST /api/bookings and GET /api/bookings/{id} answer. The name, phone, address and details
 * are the booking customer's own: absent for a caller who holds only the id (not its customer's
 * cookie, nor the owner), who gets the town.
 */
export const bookingView = z.strictObject({
  id: z.string(),
  name: z.optional(z.string()),
  phone: z.optional(z.string()),
  address: z.optional(z.string()),
  /** The town of the address (shared/domain/town.ts); null when it names none. */
  town: z.nullable(z.string()),
  category: z.string(),
  details: z.optional(z.string()),
  status: z.enum(bookingStatuses),
  /** Where finding a professional stands: 'no_worker_available' once every offer went unanswered. */
  dispatch: z.enum(['searching', 'assigned', 'no_worker_available', 'done']),
  createdAt: z.string(),
});
export type Booking = z.infer<typeof bookingView>;

/** A catalogue entry as GET /api/services answers it. */
export const serviceView = z.strictObject({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  description: z.string(),
  category: z.string(),
  included: z.array(z.string()),
});
export type Service = z.infer<typeof serviceView>;

/** GET /api/config: the constants screens need, so every screen shows the same figures. */
export const publicConfig = z.strictObject({
  platformFeePercent: z.number(),
  workerSharePercent: z.number(),
  arrivalGraceMinutes: z.number(),
  supportEmail: z.string(),
  currency: z.string(),
  maxUploadBytes: z.number(),
  /** Distances on screen: miles or kilometres (miles by default, as for US dollars). */
  distanceUnit: z.enum(['mi', 'km']),
  /** The locale money and numbers are written in (BCP 47), e.g. en-US. */
  locale: z.string(),
});
export type PublicConfig = z.infer<typeof publicConfig>;

/** GET and PUT /api/customer/service-address: the saved address as its customer sees it (no position). */
export const serviceAddressView = z.strictObject({
  serviceAddress: z.nullable(z.strictObject({ address: z.string(), savedAt: z.string() })),
});
export type ServiceAddressView = z.infer<typeof serviceAddressView>;

/** What both review calls answer. */
export const reviewResult = z.strictObject({
  success: z.literal(true),
  jobId: z.string(),
  rating: z.number(),
  /** The worker's average after this review, one decimal, and how many reviews it is over. */
  workerRating: z.number(),
  workerReviewCount: z.number(),
});
export type ReviewResult = z.infer<typeof reviewResult>;
