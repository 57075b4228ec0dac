import type { ApplicationStatus, CompanyApplicationInput } from '../schemas/applications';
import { defineEntity, on } from './define';

/**
 * Worker and company applications, and the email claims that make "one application or account per
 * email" a conditional put. The SSN's last four are stored for the owner's background check and
 * never leave the repository through any view.
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
  /** The worker profile the approval created or turned active. */
  workerId?: string;
  /** The owner's notes with a rejection (required: the applicant reads them). */
  reviewNotes?: string;
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
  /** The owner's notes with the decision (required for a rejection: the company reads them). */
  reviewNotes?: string;
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

/**
 * A company contact's email claim (apart from the worker one: a company contact may also be a worker).
 */
export interface CompanyEmailClaimItem {
  pk: string;
  sk: string;
  entity: 'company-email-claim';
  email: string;
  applicationId: string;
  createdAt: string;
}

/** gsi1 APPLICATIONS#<kind>#<status> / APPLICATION#<submittedAt>: applications of one kind by status, oldest first. */
const byStatus = (kind: 'worker' | 'company') =>
  on('gsi1', (status: ApplicationStatus, submittedAt = '') => ({
    gsi1pk: `APPLICATIONS#${kind}#${status}`,
    gsi1sk: `APPLICATION#${submittedAt}`,
  }));

export const workerApplicationEntity = defineEntity<WorkerApplicationItem>()({
  name: 'worker-application',
  key: (id: string) => ({ pk: `APPLICATION#${id}`, sk: 'APPLICATION' }),
  indexes: { byStatus: byStatus('worker') },
});

export const companyApplicationEntity = defineEntity<CompanyApplicationItem>()({
  name: 'company-application',
  key: (id: string) => ({ pk: `COMPANY_APPLICATION#${id}`, sk: 'APPLICATION' }),
  indexes: { byStatus: byStatus('company') },
});

/** One per email address: makes "one application or account per email" a conditional put. */
export const emailClaimEntity = defineEntity<EmailClaimItem>()({
  name: 'email-claim',
  key: (email: string) => ({ pk: `EMAIL#${email.toLowerCase()}`, sk: 'EMAIL' }),
});

export const companyEmailClaimEntity = defineEntity<CompanyEmailClaimItem>()({
  name: 'company-email-claim',
  key: (email: string) => ({ pk: `COMPANY_EMAIL#${email.toLowerCase()}`, sk: 'EMAIL' }),
});
