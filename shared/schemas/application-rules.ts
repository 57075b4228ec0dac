/**
 * The applications' plain rules: no schema library here, so repositories and other schemas can use
 * them without bundling the application forms' schemas (npm run bench).
 */
export const uploadKeyPattern = /^uploads\/(worker-documents|company-documents|profile-photos)\/[A-Za-z0-9_-]{22}\.(pdf|jpg|jpeg|png)$/;

export const MISSING_ID_DOCUMENTS =
  'Missing Documents - Please upload all required documents: Photo ID (front and back) and selfie.';

export const uploadTypes = ['worker-documents', 'company-documents', 'profile-photos'] as const;
export const uploadContentTypes = {
  'worker-documents': ['image/jpeg', 'image/png'],
  'company-documents': ['application/pdf', 'image/jpeg', 'image/png'],
  'profile-photos': ['image/jpeg', 'image/png'],
} as const satisfies Record<(typeof uploadTypes)[number], readonly string[]>;

export const applicationStatuses = ['pending', 'approved', 'rejected'] as const;
export type ApplicationStatus = (typeof applicationStatuses)[number];

/** The owner's notes on a company decision: bounded, and required to reject (the company reads them). */
export const COMPANY_REVIEW_NOTES_MAX = 1000;
export const COMPANY_REJECT_NOTES_REQUIRED = 'Tell the company why it is not approved';
/** A worker applicant reads the rejection's notes on their review screen: required, at most 1,000 characters. */
export const WORKER_REJECT_NOTES_REQUIRED = 'Tell the applicant why they are not approved';
