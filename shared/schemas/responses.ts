import * as z from 'zod/mini';
import { estimateResult } from './estimate';
import { notificationSchema } from '../realtime';
import { pageOf } from './page';
import { strikePage, strikeView, workerStrikeRecord } from './strikes';
import {
  adminDocumentPage,
  documentCategoriesResponse,
  documentDownload,
  documentListResponse,
  documentResult,
  documentUploadTicket,
  complianceResponse,
  workerCompliance,
} from './views/documents';
import {
  checkoutSessionResult,
  crewBillView,
  clientVerificationResult,
  invoiceView,
  payoutOnboardingLink,
  payoutStatusView,
  webhookReceipt,
} from './views/invoice';
import {
  completedJobView,
  createdRequest,
  geocodeResult,
  jobOfferView,
  paymentConfirmationView,
  serviceRequestView,
  trackLookupResult,
  trackedRequestView,
  workerJobView,
  workerListingView,
} from './views/job';
import {
  analytics,
  bookingView,
  companyApplicationDecision,
  companyApplicationStatusView,
  companyApplicationView,
  currentUser,
  jobAdminView,
  pendingWorkerView,
  publicConfig,
  reviewResult,
  serviceAddressView,
  serviceView,
  workerAdminView,
  workerApplicationStatusView,
  workerSelf,
  workerSession,
} from './views/people';
import { csvText, proFigures } from './views/analytics';
import { availableWorkerPage, jobAdminDetail, jobAdminPage } from './owner-jobs';
import { requestsLinkOpened, requestsLinkPreview } from './requests-link';

/**
 * The schema of every route's answer (its 2xx body), by the name the manifest gives it
 * (shared/routes.ts `response`). Only the tests import this map (functions/testing/responses.ts):
 * answers are checked there, never at run time, so no function bundles it.
 */
export const responseSchemas = {
  // Plain acknowledgements.
  /** No body (204). */
  noContent: z.undefined(),
  ok: z.strictObject({ ok: z.literal(true) }),
  success: z.strictObject({ success: z.literal(true) }),
  message: z.strictObject({ message: z.string() }),

  // The site and the catalogue.
  publicConfig,
  services: z.array(serviceView),
  service: serviceView,
  booking: bookingView,

  // The owner.
  adminStatus: z.strictObject({ isAdmin: z.boolean(), isSetup: z.boolean() }),
  setupStatus: z.strictObject({ needsSetup: z.boolean() }),
  /** Setup and login: the owner, with the session cookie beside. */
  ownerSignedIn: z.strictObject({ message: z.string(), user: currentUser }),
  currentUser: z.strictObject({ ok: z.literal(true), user: currentUser }),
  /** The owner's email as stored (lower-case), after adding or changing it. */
  ownerEmail: z.strictObject({ message: z.string(), email: z.string() }),
  /** The owner's email on file, or null for an owner set up before it was asked for. */
  ownerEmailOnFile: z.strictObject({ email: z.nullable(z.string()) }),
  /** A password set through a reset link: whose login page to sign in on (nobody is signed in by it). */
  passwordReset: z.strictObject({ message: z.string(), role: z.enum(['admin', 'worker']) }),
  /** A pro's account link opened: the application's address, and whether an account already uses it. */
  workerAccountLink: z.strictObject({ email: z.string(), accountExists: z.boolean() }),
  /** The local runtime's sign-in as anyone: a worker's also carries the token. */
  devLogin: z.strictObject({ ok: z.literal(true), user: currentUser, token: z.optional(z.string()) }),
  /** The owner's pending worker applications, a page at a time. */
  pendingWorkers: pageOf(pendingWorkerView),
  /** The owner's workers list, a page at a time. */
  workers: pageOf(workerAdminView),
  workerAdmin: workerAdminView,
  strike: strikeView,
  strikePage,
  workerStrikeRecord,
  adminJobs: z.array(jobAdminView),
  jobAdminPage,
  jobAdminDetail,
  availableWorkerPage,
  analytics,
  proFiguresPage: pageOf(proFigures),
  /** A CSV file (text/csv with a file name), not JSON. */
  csv: csvText,
  workerApproved: z.strictObject({ message: z.string(), workerId: z.string() }),
  /** The owner's pending company applications, a page at a time. */
  companyApplications: pageOf(companyApplicationView),
  workerApplicationStatus: workerApplicationStatusView,
  companyApplicationDecision,
  /** A presigned GET of a stored file. */
  presignedDownload: z.strictObject({ url: z.string(), expiresAt: z.string() }),

  // Applications and uploads.
  /** A presigned POST: every field of `fields`, then the file. */
  presignedUpload: z.strictObject({
    url: z.string(),
    fields: z.record(z.string(), z.string()),
    key: z.string(),
    expiresAt: z.string(),
    maxBytes: z.number(),
  }),
  applicationReceived: z.strictObject({ id: z.string(), status: z.literal('pending'), message: z.string() }),
  companyApplicationStatus: companyApplicationStatusView,

  // Workers.
  workerSession,
  workerSelf,
  availability: z.strictObject({ isAvailable: z.boolean() }),
  clockedIn: z.strictObject({ isClockedIn: z.boolean(), lastClockIn: z.nullable(z.string()) }),
  clockedOut: z.strictObject({ isClockedIn: z.boolean() }),
  workerTypeSet: z.strictObject({ workerType: z.nullable(z.enum(['contract', 'independent'])) }),
  jobOffers: z.array(jobOfferView),
  workerJob: workerJobView,
  workerJobs: z.array(workerJobView),
  completedJobs: z.array(completedJobView),

  // Customers.
  createdRequest,
  estimate: estimateResult,
  serviceRequest: serviceRequestView,
  serviceRequests: z.array(serviceRequestView),
  /** "Find my requests": what opening the link would show (nothing spent), and what it did. */
  requestsLinkPreview,
  requestsLinkOpened,
  trackedRequest: trackedRequestView,
  trackLookup: trackLookupResult,
  paymentConfirmation: paymentConfirmationView,
  workerListings: z.array(workerListingView),
  serviceAddress: serviceAddressView,
  geocode: geocodeResult,
  review: reviewResult,

  // Verification, invoices and payments.
  clientVerification: clientVerificationResult,
  invoice: invoiceView,
  invoices: z.array(invoiceView),
  checkoutSession: checkoutSessionResult,
  crewBill: crewBillView,
  webhookReceipt,
  payoutStatus: payoutStatusView,
  payoutOnboarding: payoutOnboardingLink,

  // Push and notifications.
  vapidPublicKey: z.strictObject({ publicKey: z.string() }),
  pushValid: z.strictObject({ valid: z.literal(true) }),
  testPushSent: z.strictObject({ success: z.literal(true), sent: z.number() }),
  notifications: z.array(notificationSchema),

  // Compliance documents.
  documentCategories: documentCategoriesResponse,
  documentList: documentListResponse,
  documentUploadTicket,
  document: documentResult,
  documentDownload,
  workerCompliance,
  compliance: complianceResponse,
  adminDocumentPage,
};
