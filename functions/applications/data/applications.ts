import type { CompanyApplicationView, CompanyDocument, PendingWorkerView, WorkerDocument } from '../../../shared/schemas/admin';
import type { CompanyApplicationDecision, CompanyApplicationStatusView, WorkerApplicationStatusView } from '../../../shared/schemas/views/people';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type {
  ApplicationStatus,
  CompanyApplicationInput,
  WorkerApplicationInput,
  WorkerApplyLegacyInput,
} from '../../../shared/schemas/applications';
import { applicationStatuses } from '../../../shared/schemas/application-rules';
import {
  companyApplicationEntity,
  companyEmailClaimEntity,
  emailClaimEntity,
  workerApplicationEntity,
  type CompanyApplicationItem,
  type CompanyEmailClaimItem,
  type EmailClaimItem,
  type Unindexed,
  type WorkerApplicationItem,
} from '../../../shared/entities';
import { dynamo, tableName } from '../../common/clients';
import { ConflictError, NotFoundError } from '../../common/errors';
import { companyApplicationDecided, companyApplicationReceived, workerApplicationReceived } from '../../mail/messages/applicants';
import { MAILED_ACCOUNT_LINK_SECONDS } from '../../mail/messages/worker-accounts';
import { isNew, putOf, updateOf } from '../../common/data/expressions';
import { outboxPut } from '../../mail/data/mail';
import { workerAccountLinks } from '../../identity/data/worker-account-links';
import { countAll, queryAll } from '../../common/data/query';
import { WriteCancelled } from '../../common/data/transact';
import { readPage } from '../../common/data/page';
import type { Page, PageQuery } from '../../../shared/schemas/page';
import { stats, writeCounted } from '../../owner/data/stats';
import { declareTableUse } from '../../../shared/entities';

export type { CompanyApplicationItem, EmailClaimItem, WorkerApplicationItem } from '../../../shared/entities';

/**
 * Worker and company applications,
 * and the email claims that make "one application or account per email" a conditional write.
 * The SSN's last four are stored for the owner's background check and never leave this module
 * through any view below.
 */

export type WorkerApplicationRecord = Omit<
  Unindexed<WorkerApplicationItem>,
  'pk' | 'sk' | 'entity' | 'id' | 'status' | 'identityVerificationStatus' | 'submittedAt'
>;

/** The documents an application may carry, by the name the owner's screens use. */
export const workerDocuments = {
  idFront: 'photoIdFrontUrl',
  idBack: 'photoIdBackUrl',
  selfie: 'selfieUrl',
} as const satisfies Record<WorkerDocument, keyof WorkerApplicationItem>;
export const companyDocuments = {
  businessLicense: 'businessLicenseUrl',
  insuranceCertificate: 'insuranceCertificateUrl',
} as const satisfies Record<CompanyDocument, keyof CompanyApplicationItem>;


export function toPendingWorkerView(item: WorkerApplicationItem): PendingWorkerView {
  return {
    id: item.id,
    fullName: item.fullName,
    email: item.emailAddress,
    phone: item.phoneNumber,
    address: item.homeAddress,
    yearsExp: item.yearsExperience,
    categories: item.servicesProvided,
    hourlyRate: item.hourlyRate,
    workingHours: item.workingHours ?? null,
    availableSameDay: item.availableSameDay ?? null,
    submittedAt: item.submittedAt,
    documents: (Object.keys(workerDocuments) as WorkerDocument[]).filter((d) => Boolean(item[workerDocuments[d]])),
  };
}


export function toCompanyApplicationView(item: CompanyApplicationItem): CompanyApplicationView {
  return {
    id: item.id,
    companyName: item.companyName,
    businessType: item.businessType,
    contactPersonName: item.contactPersonName,
    phoneNumber: item.phoneNumber,
    emailAddress: item.emailAddress,
    companyAddress: item.companyAddress,
    einTaxId: item.einTaxId || null,
    workerTypesNeeded: item.workerTypesNeeded,
    typicalWorkerCount: item.typicalWorkerCount,
    averageProjectDuration: item.averageProjectDuration,
    billingContactName: item.billingContactName || null,
    billingContactEmail: item.billingContactEmail || null,
    status: item.status,
    submittedAt: item.submittedAt,
    documents: (Object.keys(companyDocuments) as CompanyDocument[]).filter((d) => Boolean(item[companyDocuments[d]])),
  };
}

export function toCompanyApplicationDecision(item: CompanyApplicationItem): CompanyApplicationDecision {
  if (item.status === 'pending' || !item.reviewedAt) throw new Error(`Company application ${item.id} is not decided`);
  return { id: item.id, status: item.status, reviewNotes: item.reviewNotes ?? null, reviewedAt: item.reviewedAt };
}

/** The company's own view: the owner's notes only with a rejection, which they explain. */
export function toCompanyApplicationStatusView(item: CompanyApplicationItem): CompanyApplicationStatusView {
  return {
    companyName: item.companyName,
    submittedAt: item.submittedAt,
    status: item.status,
    reviewNotes: item.status === 'rejected' ? (item.reviewNotes ?? null) : null,
    reviewedAt: item.reviewedAt ?? null,
  };
}

/** The applicant's own view of their application: the owner's notes only with a rejection, which they explain. */
export function toWorkerApplicationStatusView(item: WorkerApplicationItem): WorkerApplicationStatusView {
  return {
    fullName: item.fullName,
    categories: item.servicesProvided,
    submittedAt: item.submittedAt,
    status: item.status,
    reviewedAt: item.reviewedAt ?? null,
    reviewNotes: item.status === 'rejected' ? (item.reviewNotes ?? null) : null,
  };
}

/** The JSON form, as stored. */
export function fromWorkerApplication(input: WorkerApplicationInput): WorkerApplicationRecord {
  return { source: 'worker-applications', ...input };
}

/** The first form's names mapped onto the same record; its rate is in dollars. */
export function fromLegacyApplication(input: WorkerApplyLegacyInput): WorkerApplicationRecord {
  return {
    source: 'workers-apply',
    fullName: input.fullName,
    phoneNumber: input.phone,
    emailAddress: input.email,
    homeAddress: input.workAddress,
    yearsExperience: input.yearsExp,
    servicesProvided: input.categories,
    hourlyRate: Math.round(input.hourlyRate * 100),
    ssnLastFour: input.ssnLast4,
    // The first form has no working hours, same-day answer or the second form's four agreements.
    workerAgreement: false,
    workQualityAgreement: false,
    timelinessAgreement: false,
    liabilityAgreement: false,
    legalDisclaimerAccepted: input.legalDisclaimerAccepted,
    photoIdFrontUrl: input.idFrontPhoto,
    photoIdBackUrl: input.idBackPhoto,
    selfieUrl: input.selfie,
  };
}

/** Ids from newId(): anything else names no record, so it is refused before reading the table. */
export { isId } from '../../../shared/schemas/id';

const EMAIL_TAKEN = 'An application or account already exists for this email address.';
const COMPANY_EMAIL_TAKEN = 'A company application already exists for this email address.';

const COMPANY_APPLICATION_NOT_FOUND = 'No company application with this id.';
const COMPANY_ALREADY_REVIEWED = 'This company application has already been reviewed; refresh to see the decision.';

const entityOf = { worker: workerApplicationEntity, company: companyApplicationEntity } as const;


async function countsOf(kind: 'worker' | 'company'): Promise<Record<ApplicationStatus, number>> {
  const counts = await Promise.all(applicationStatuses.map((s) => countAll(entityOf[kind].indexes.byStatus.range(s))));
  return Object.fromEntries(applicationStatuses.map((s, i) => [s, counts[i]])) as Record<ApplicationStatus, number>;
}

export const applicationsRepo = {
  /**
   * The application, the email claim and the applicant's "application received" mail (the outbox,
   * sent by functions/mail/send-mail.ts) in one write: a taken email → 409, nothing stored, nothing mailed.
   */
  async createWorkerApplication(input: {
    id: string;
    submittedAt: string;
    record: WorkerApplicationRecord;
  }): Promise<WorkerApplicationItem> {
    const { id, submittedAt, record } = input;
    const item: WorkerApplicationItem = {
      ...workerApplicationEntity.key(id),
      ...workerApplicationEntity.indexes.byStatus.key('pending', submittedAt),
      entity: 'worker-application',
      id,
      ...record,
      status: 'pending',
      identityVerificationStatus: 'pending',
      submittedAt,
    };
    const claim: EmailClaimItem = {
      ...emailClaimEntity.key(record.emailAddress),
      entity: 'email-claim',
      email: record.emailAddress.toLowerCase(),
      applicationId: id,
      createdAt: submittedAt,
    };
    try {
      await writeCounted([
        { Put: putOf(emailClaimEntity, claim, isNew) },
        { Put: putOf(workerApplicationEntity, item, isNew) },
        stats.applicationStatusMoved('worker', null, 'pending'),
        // The received mail carries the link that makes the account: only this mailbox gets one.
        ...workerAccountLinks.writes(claim.email, MAILED_ACCOUNT_LINK_SECONDS, (link) => workerApplicationReceived(item, link.secret)),
      ]);
    } catch (error) {
      if (error instanceof WriteCancelled && error.refusedAt(0)) throw new ConflictError(EMAIL_TAKEN);
      throw error;
    }
    return item;
  },

  /** As a worker's: the application, the email claim and the contact's "application received" mail in one write. */
  async createCompanyApplication(input: {
    id: string;
    submittedAt: string;
    application: CompanyApplicationInput;
  }): Promise<CompanyApplicationItem> {
    const { id, submittedAt, application } = input;
    const item: CompanyApplicationItem = {
      ...companyApplicationEntity.key(id),
      ...companyApplicationEntity.indexes.byStatus.key('pending', submittedAt),
      entity: 'company-application',
      id,
      ...application,
      status: 'pending',
      submittedAt,
    };
    const claim: CompanyEmailClaimItem = {
      ...companyEmailClaimEntity.key(application.emailAddress),
      entity: 'company-email-claim',
      email: application.emailAddress.toLowerCase(),
      applicationId: id,
      createdAt: submittedAt,
    };
    try {
      await writeCounted([
        { Put: putOf(companyEmailClaimEntity, claim, isNew) },
        { Put: putOf(companyApplicationEntity, item, isNew) },
        stats.applicationStatusMoved('company', null, 'pending'),
        outboxPut(companyApplicationReceived(item)),
      ]);
    } catch (error) {
      if (error instanceof WriteCancelled && error.refusedAt(0)) throw new ConflictError(COMPANY_EMAIL_TAKEN);
      throw error;
    }
    return item;
  },

  async findWorkerApplication(id: string): Promise<WorkerApplicationItem | undefined> {
    const out = await dynamo.send(
      new GetCommand({ TableName: tableName, Key: workerApplicationEntity.key(id), ConsistentRead: true }),
    );
    return out.Item as WorkerApplicationItem | undefined;
  },

  async findCompanyApplication(id: string): Promise<CompanyApplicationItem | undefined> {
    const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: companyApplicationEntity.key(id) }));
    return out.Item as CompanyApplicationItem | undefined;
  },

  /**
   * A 409 for an email already taken, before an application's files are copied for nothing (and
   * after a first filing took the uploads); the write that files it stays conditional.
   */
  async requireEmailFree(kind: 'worker' | 'company', email: string): Promise<void> {
    const key = kind === 'worker' ? emailClaimEntity.key(email) : companyEmailClaimEntity.key(email);
    const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true, ProjectionExpression: 'pk' }));
    if (out.Item) throw new ConflictError(kind === 'worker' ? EMAIL_TAKEN : COMPANY_EMAIL_TAKEN);
  },

  async findEmailClaim(email: string): Promise<EmailClaimItem | undefined> {
    const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: emailClaimEntity.key(email), ConsistentRead: true }));
    return out.Item as EmailClaimItem | undefined;
  },

  /** Oldest first (gsi1 sorts by submittedAt). */
  listWorkerApplications: (status: ApplicationStatus) => queryAll(workerApplicationEntity.indexes.byStatus.range(status)),
  listCompanyApplications: (status: ApplicationStatus) => queryAll(companyApplicationEntity.indexes.byStatus.range(status)),

  /** One page of the owner's list of one status, oldest first; the cursor is the page before's. */
  pageOfWorkerApplications: (status: ApplicationStatus, page: PageQuery): Promise<Page<WorkerApplicationItem>> =>
    readPage(workerApplicationEntity.indexes.byStatus.range(status), page),
  pageOfCompanyApplications: (status: ApplicationStatus, page: PageQuery): Promise<Page<CompanyApplicationItem>> =>
    readPage(companyApplicationEntity.indexes.byStatus.range(status), page),

  /**
   * The owner's decision on a pending company application, in one update conditional on it still
   * being pending: of two decisions (twice, or racing) exactly one is stored and the other is a 409.
   * The update moves the item to its new status's gsi1 partition, which is what the analytics
   * count (companyCounts), so the counts move with the decision, and puts the contact's mail
   * telling the decision in the outbox: the decision refused, no mail either.
   */
  async decideCompanyApplication(
    id: string,
    decision: { status: 'approved' | 'rejected'; notes?: string; now: string },
  ): Promise<CompanyApplicationItem> {
    const application = await applicationsRepo.findCompanyApplication(id);
    if (!application) throw new NotFoundError(COMPANY_APPLICATION_NOT_FOUND);
    if (application.status !== 'pending') throw new ConflictError(COMPANY_ALREADY_REVIEWED);
    const { status, notes, now } = decision;
    const set = {
      status,
      reviewedAt: now,
      ...(status === 'approved' ? { approvedAt: now } : {}),
      ...(notes ? { reviewNotes: notes } : {}),
      ...companyApplicationEntity.indexes.byStatus.key(status, application.submittedAt),
    };
    try {
      // The owner's counts by status move in the same write as the decision.
      await writeCounted([
        { Update: updateOf(companyApplicationEntity, companyApplicationEntity.key(id), { set, if: (c) => c.eq('status', 'pending') }) },
        stats.applicationStatusMoved('company', 'pending', status),
        outboxPut(companyApplicationDecided(application, { status, notes })),
      ]);
    } catch (error) {
      if (error instanceof WriteCancelled) throw new ConflictError(COMPANY_ALREADY_REVIEWED);
      throw error;
    }
    return { ...application, ...set };
  },

  workerCounts: () => countsOf('worker'),
  companyCounts: () => countsOf('company'),
};

/** The items this module reads and writes: the stack's table grants are generated from these (infra/table-grants.ts). */
export const tableUse = declareTableUse({ reads: [companyApplicationEntity, companyEmailClaimEntity, emailClaimEntity, workerApplicationEntity], writes: [companyApplicationEntity, companyEmailClaimEntity, emailClaimEntity, workerApplicationEntity] });
