import type { ApplicationStatus } from '../schemas/applications';
import { companyApplicationEntity, companyEmailClaimEntity, emailClaimEntity, workerApplicationEntity } from './applications';
import { deviceCookieEntity, ownerEntity, sessionEntity, throttleKey } from './auth';
import { bookingEntity } from './bookings';
import { geocodeEntity, serviceEntity } from './catalog';
import { customerEmailEntity, customerEntity, customerKeyEntity, serviceAddressEntity } from './customers';
import { documentAccessEntity, documentEntity, documentUploadEntity } from './documents';
import { invoiceEntity, stripeEventEntity } from './invoices';
import { mailSuppressionEntity, outboundMailEntity } from './mail';
import { customerAccountEntity, requestsLinkEntity } from './requests-links';
import { passwordResetEntity } from './password-resets';
import { workerAccountLinkEntity } from './worker-account-links';
import { statsEntity, tallyEntity } from './stats';
import { jobEntity, jobEventEntity, jobLocationEntity, trackingNumberEntity, workerOfferEntity } from './jobs';
import {
  connectionEntity,
  notificationEntity,
  pushDeliveryEntity,
  pushEndpointEntity,
  pushSubscriptionEntity,
  roomMemberEntity,
} from './realtime';
import {
  dispatchCategoryEntity,
  dispatchCellEntity,
  stripeAccountEntity,
  workerAccountEntity,
  workerEntity,
  workerPenaltyEntity,
  workerProbationEntity,
} from './workers';

/**
 * Every kind of item the single table stores, one definition each (key builder, item type, the
 * GSIs it populates and when), grouped by area. The repositories (functions/<area>/data/) read and write items
 * only through these definitions.
 */
export * from './applications';
export * from './auth';
export * from './bookings';
export * from './catalog';
export * from './customers';
export * from './define';
export * from './documents';
export { indexAttributes, type IndexName } from './indexes';
export * from './invoices';
export * from './jobs';
export * from './mail';
export * from './password-resets';
export * from './realtime';
export * from './requests-links';
export * from './shards';
export * from './stats';
export * from './workers';
export * from './worker-account-links';

/**
 * The same key builders as one flat map, for code that needs a key and nothing else of the entity:
 * tests preparing items, the IAM grants in shared/routes.ts, the local runtime, sign-in records.
 * Each entry is the entity's own builder, so the two can never build different keys.
 */
export const keys = {
  catalog: () => serviceEntity.key(),
  service: serviceEntity.key,
  booking: bookingEntity.key,
  owner: ownerEntity.key,
  session: sessionEntity.key,
  sessionsOf: sessionEntity.indexes.of.key,
  deviceCookie: deviceCookieEntity.key,
  deviceCookiesOf: deviceCookieEntity.indexes.of.key,
  passwordReset: passwordResetEntity.key,
  passwordResetsOf: passwordResetEntity.indexes.of.key,
  workerAccountLink: workerAccountLinkEntity.key,
  workerAccountLinksOf: workerAccountLinkEntity.indexes.of.key,
  throttle: throttleKey,
  email: emailClaimEntity.key,
  workerApplication: workerApplicationEntity.key,
  companyApplication: companyApplicationEntity.key,
  applicationsByStatus: (kind: 'worker' | 'company', status: ApplicationStatus, submittedAt = '') =>
    (kind === 'worker' ? workerApplicationEntity : companyApplicationEntity).indexes.byStatus.key(status, submittedAt),
  worker: workerEntity.key,
  workerAccount: workerAccountEntity.key,
  /** A write-sharded list's keys take the item's own key first, which picks its shard. */
  allWorkers: (id: string, createdAt = '') => workerEntity.indexes.all.keyFor(workerEntity.key(id), createdAt),
  customer: customerEntity.key,
  customerByKey: customerKeyEntity.key,
  customerEmail: customerEmailEntity.key,
  customerAccount: customerAccountEntity.key,
  requestsLink: requestsLinkEntity.key,
  customerServiceAddress: serviceAddressEntity.key,
  customerBookings: bookingEntity.indexes.customerBookings.key,
  companyEmail: companyEmailClaimEntity.key,
  allJobs: (id: string, createdAt = '') => jobEntity.indexes.all.keyFor(jobEntity.key(id), createdAt),
  job: jobEntity.key,
  customerRequests: jobEntity.indexes.customerRequests.key,
  unfilledJobs: jobEntity.indexes.unfilled.key,
  trackingNumber: trackingNumberEntity.key,
  workerJobs: jobEntity.indexes.workerJobs.key,
  workerOffer: workerOfferEntity.key,
  dispatchCell: dispatchCellEntity.key,
  dispatchCategory: dispatchCategoryEntity.key,
  workerProbation: workerProbationEntity.key,
  workerPenalty: workerPenaltyEntity.key,
  strikeById: workerPenaltyEntity.indexes.byId.key,
  openStrikeAppeals: workerPenaltyEntity.indexes.openAppeals.key,
  invoice: invoiceEntity.key,
  customerInvoices: invoiceEntity.indexes.customerInvoices.key,
  workerInvoices: invoiceEntity.indexes.workerInvoices.key,
  allInvoices: (id: string, createdAt = '') => invoiceEntity.indexes.all.keyFor(invoiceEntity.key(id), createdAt),
  stripeEvent: stripeEventEntity.key,
  pushDelivery: pushDeliveryEntity.key,
  outboundMail: outboundMailEntity.key,
  mailSuppression: mailSuppressionEntity.key,
  stripeAccount: stripeAccountEntity.key,
  connection: connectionEntity.key,
  roomMember: roomMemberEntity.key,
  notification: notificationEntity.key,
  pushSubscription: pushSubscriptionEntity.key,
  pushEndpoint: pushEndpointEntity.key,
  jobLocation: jobLocationEntity.key,
  jobEvent: jobEventEntity.key,
  geocode: geocodeEntity.key,
  stats: statsEntity.key,
  tally: tallyEntity.key,
  document: documentEntity.key,
  workerDocuments: documentEntity.indexes.workerDocuments.key,
  allDocuments: (id: string, createdAt = '') => documentEntity.indexes.current.keyFor(documentEntity.key(id), createdAt, id),
  documentExpiry: documentEntity.indexes.expiry.key,
  documentUpload: documentUploadEntity.key,
  openDocumentUploads: documentUploadEntity.indexes.open.key,
  documentAccess: documentAccessEntity.key,
};
