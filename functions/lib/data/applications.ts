import type { CompanyApplicationView, CompanyDocument, PendingWorkerView, WorkerDocument } from '../../../shared/schemas/admin';
import { GetCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type {
  ApplicationStatus,
  CompanyApplicationInput,
  WorkerApplicationInput,
  WorkerApplyLegacyInput,
} from '../../../shared/schemas/applications';
import { applicationStatuses } from '../../../shared/schemas/application-rules';
import { keys } from '../../../shared/table';
import { dynamo, tableName } from '../clients';
import { ConflictError } from '../errors';
import { writeTogether, WriteCancelled } from './transact';

/**
 * Worker and company applications (the spec's contractor_applications and company_applications),
 * and the email claims that make "one application or account per email" a conditional write.
 * The SSN's last four are stored for the owner's background check and never leave this module
 * through any view below.
 */

/** The stored worker application. Upload fields hold the S3 keys of the uploaded images. */
export interface WorkerApplicationItem {
  pk: string;
  sk: string;
  gsi1pk: string;
  gsi1sk: string;
  entity: 'worker-application';
  id: string;
  /** Which call filed it: the JSON form or the first form's field names. */
  source: 'worker-applications' | 'workers-apply';
  fullName: string;
  phoneNumber: string;
  emailAddress: string;
  homeAddress: string;
  yearsExperience: number;
  servicesProvided: string[];
  /** Cents. */
  hourlyRate: number;
  ssnLastFour: string;
  workingHours?: string;
  availableSameDay?: boolean;
  workerAgreement: boolean;
  workQualityAgreement: boolean;
  timelinessAgreement: boolean;
  liabilityAgreement: boolean;
  legalDisclaimerAccepted: boolean;
  photoIdFrontUrl: string;
  photoIdBackUrl: string;
  selfieUrl: string;
  status: ApplicationStatus;
  identityVerificationStatus: 'pending';
  submittedAt: string;
  reviewedAt?: string;
  approvedAt?: string;
  /** The worker profile the approval created. */
  workerId?: string;
}

export type WorkerApplicationRecord = Omit<
  WorkerApplicationItem,
  'pk' | 'sk' | 'gsi1pk' | 'gsi1sk' | 'entity' | 'id' | 'status' | 'identityVerificationStatus' | 'submittedAt'
>;

export interface CompanyApplicationItem extends CompanyApplicationInput {
  pk: string;
  sk: string;
  gsi1pk: string;
  gsi1sk: string;
  entity: 'company-application';
  id: string;
  status: ApplicationStatus;
  submittedAt: string;
  reviewedAt?: string;
  approvedAt?: string;
}

/**
 * EMAIL#<email>: the email is taken by a worker application (and, once approved, its worker).
 * The worker account call finds the approved worker through `workerId`.
 */
export interface EmailClaimItem {
  pk: string;
  sk: string;
  entity: 'email-claim';
  email: string;
  applicationId: string;
  workerId?: string;
  createdAt: string;
}

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
export function isId(value: string | undefined): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9_-]{22}$/.test(value);
}

const EMAIL_TAKEN = 'An application or account already exists for this email address.';
const COMPANY_EMAIL_TAKEN = 'A company application already exists for this email address.';

/** Every item of one gsi1/gsi2/gsi3 partition, following the pages. */
export async function queryAll<T>(input: Omit<QueryCommandInput, 'TableName'>): Promise<T[]> {
  const items: T[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await dynamo.send(new QueryCommand({ ...input, TableName: tableName, ExclusiveStartKey: start }));
    items.push(...((out.Items ?? []) as T[]));
    start = out.LastEvaluatedKey;
  } while (start);
  return items;
}

/** How many items one index partition holds (Select COUNT, following the pages). */
export async function countAll(index: string, partitionKey: string, value: string): Promise<number> {
  let count = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const out = await dynamo.send(
      new QueryCommand({
        TableName: tableName,
        IndexName: index,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': partitionKey },
        ExpressionAttributeValues: { ':pk': value },
        Select: 'COUNT',
        ExclusiveStartKey: start,
      }),
    );
    count += out.Count ?? 0;
    start = out.LastEvaluatedKey;
  } while (start);
  return count;
}

function byStatus(kind: 'worker' | 'company', status: ApplicationStatus) {
  return queryAll<never>({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.applicationsByStatus(kind, status).gsi1pk },
  });
}

async function countsOf(kind: 'worker' | 'company'): Promise<Record<ApplicationStatus, number>> {
  const counts = await Promise.all(
    applicationStatuses.map((s) => countAll('gsi1', 'gsi1pk', keys.applicationsByStatus(kind, s).gsi1pk)),
  );
  return Object.fromEntries(applicationStatuses.map((s, i) => [s, counts[i]])) as Record<ApplicationStatus, number>;
}

export const applicationsRepo = {
  /** The application and the email claim in one write: a taken email → 409, nothing stored. */
  async createWorkerApplication(input: {
    id: string;
    submittedAt: string;
    record: WorkerApplicationRecord;
  }): Promise<WorkerApplicationItem> {
    const { id, submittedAt, record } = input;
    const item: WorkerApplicationItem = {
      ...keys.workerApplication(id),
      ...keys.applicationsByStatus('worker', 'pending', submittedAt),
      entity: 'worker-application',
      id,
      ...record,
      status: 'pending',
      identityVerificationStatus: 'pending',
      submittedAt,
    };
    const claim: EmailClaimItem = {
      ...keys.email(record.emailAddress),
      entity: 'email-claim',
      email: record.emailAddress.toLowerCase(),
      applicationId: id,
      createdAt: submittedAt,
    };
    try {
      await writeTogether([
        { Put: { TableName: tableName, Item: claim, ConditionExpression: 'attribute_not_exists(pk)' } },
        { Put: { TableName: tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
      ]);
    } catch (error) {
      if (error instanceof WriteCancelled && error.refusedAt(0)) throw new ConflictError(EMAIL_TAKEN);
      throw error;
    }
    return item;
  },

  async createCompanyApplication(input: {
    id: string;
    submittedAt: string;
    application: CompanyApplicationInput;
  }): Promise<CompanyApplicationItem> {
    const { id, submittedAt, application } = input;
    const item: CompanyApplicationItem = {
      ...keys.companyApplication(id),
      ...keys.applicationsByStatus('company', 'pending', submittedAt),
      entity: 'company-application',
      id,
      ...application,
      status: 'pending',
      submittedAt,
    };
    const claim = {
      ...keys.companyEmail(application.emailAddress),
      entity: 'company-email-claim',
      email: application.emailAddress.toLowerCase(),
      applicationId: id,
      createdAt: submittedAt,
    };
    try {
      await writeTogether([
        { Put: { TableName: tableName, Item: claim, ConditionExpression: 'attribute_not_exists(pk)' } },
        { Put: { TableName: tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
      ]);
    } catch (error) {
      if (error instanceof WriteCancelled && error.refusedAt(0)) throw new ConflictError(COMPANY_EMAIL_TAKEN);
      throw error;
    }
    return item;
  },

  async findWorkerApplication(id: string): Promise<WorkerApplicationItem | undefined> {
    const out = await dynamo.send(
      new GetCommand({ TableName: tableName, Key: keys.workerApplication(id), ConsistentRead: true }),
    );
    return out.Item as WorkerApplicationItem | undefined;
  },

  async findCompanyApplication(id: string): Promise<CompanyApplicationItem | undefined> {
    const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.companyApplication(id) }));
    return out.Item as CompanyApplicationItem | undefined;
  },

  /**
   * A 409 for an email already taken, before an application's files are copied for nothing (and
   * after a first filing took the uploads); the write that files it stays conditional.
   */
  async requireEmailFree(kind: 'worker' | 'company', email: string): Promise<void> {
    const key = kind === 'worker' ? keys.email(email) : keys.companyEmail(email);
    const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true, ProjectionExpression: 'pk' }));
    if (out.Item) throw new ConflictError(kind === 'worker' ? EMAIL_TAKEN : COMPANY_EMAIL_TAKEN);
  },

  async findEmailClaim(email: string): Promise<EmailClaimItem | undefined> {
    const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.email(email), ConsistentRead: true }));
    return out.Item as EmailClaimItem | undefined;
  },

  /** Oldest first (gsi1 sorts by submittedAt). */
  listWorkerApplications: (status: ApplicationStatus) => byStatus('worker', status) as Promise<WorkerApplicationItem[]>,
  listCompanyApplications: (status: ApplicationStatus) =>
    byStatus('company', status) as Promise<CompanyApplicationItem[]>,

  workerCounts: () => countsOf('worker'),
  companyCounts: () => countsOf('company'),
};
