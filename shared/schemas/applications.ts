import * as z from 'zod/mini';
import { categorySlugs } from '../categories';
import { strictBody } from '../validation';
import { accepted, choices, deliverableEmail, email, phone, text } from './fields';
import {
  COMPANY_REJECT_NOTES_REQUIRED,
  COMPANY_REVIEW_NOTES_MAX,
  WORKER_REJECT_NOTES_REQUIRED,
  MISSING_ID_DOCUMENTS,
  uploadContentTypes,
  uploadKeyPattern,
  uploadTypes,
} from './application-rules';

export * from './application-rules';

/** Where an uploaded file lives: the key handed out with its presigned POST (POST /api/upload). */
const uploadKey = (message: string) => z.string({ error: message }).check(z.regex(uploadKeyPattern, message));


const categoryList = (message: string) =>
  choices(categorySlugs, { invalid: 'Choose categories from the list', required: message, duplicate: 'Choose each category once' });

/**
 * The one worker application: everything either application form asks for, sent as JSON
 * to POST /api/worker-applications after the three ID images went straight to S3.
 * hourlyRate is in cents, 15.00 to 200.00 in steps of 0.50.
 */
export const workerApplicationSchema = strictBody({
  fullName: text('Full name required', z.minLength(2, 'Full name required'), z.maxLength(100, 'Full name is too long')),
  phoneNumber: phone('Valid phone number required'),
  emailAddress: deliverableEmail('Valid email required'),
  homeAddress: text(
    'Complete work address required',
    z.minLength(10, 'Complete work address required'),
    z.maxLength(200, 'Address is too long'),
  ),
  yearsExperience: z.number({ error: 'Please enter a valid number' }).check(
    z.int('Please enter a valid number'),
    z.gte(0, 'Please enter a valid number'),
    z.lte(50, 'Please enter a valid number'),
  ),
  servicesProvided: categoryList('At least one service category required'),
  hourlyRate: z.number({ error: 'Hourly rate must be at least $15' }).check(
    z.int('Hourly rate must be whole cents'),
    z.gte(1500, 'Hourly rate must be at least $15'),
    z.lte(20000, 'Hourly rate seems too high'),
    z.multipleOf(50, 'Hourly rate goes in steps of $0.50'),
  ),
  ssnLastFour: z.string({ error: 'Must be exactly 4 digits' }).check(z.regex(/^\d{4}$/, 'Must be exactly 4 digits')),
  workingHours: text(
    'Tell us when you can work (at least 5 characters)',
    z.minLength(5, 'Tell us when you can work (at least 5 characters)'),
    z.maxLength(200, 'Working hours are too long'),
  ),
  availableSameDay: z.boolean({ error: 'Answer yes or no' }),
  workerAgreement: accepted('You must accept this agreement'),
  workQualityAgreement: accepted('You must accept this agreement'),
  timelinessAgreement: accepted('You must accept this agreement'),
  liabilityAgreement: accepted('You must accept this agreement'),
  legalDisclaimerAccepted: accepted('Legal disclaimer must be accepted'),
  photoIdFrontUrl: uploadKey(MISSING_ID_DOCUMENTS),
  photoIdBackUrl: uploadKey(MISSING_ID_DOCUMENTS),
  selfieUrl: uploadKey(MISSING_ID_DOCUMENTS),
});
export type WorkerApplicationInput = z.infer<typeof workerApplicationSchema>;

/**
 * POST /api/workers/apply: the shorter form's field names (phone, email, rate in dollars), with the two ID
 * photos as upload keys instead of multipart files. Stored as the same record as the above.
 */
export const workerApplyLegacySchema = strictBody({
  fullName: text('Full name required', z.minLength(2, 'Full name required'), z.maxLength(100, 'Full name is too long')),
  phone: phone('Valid phone number required'),
  email: deliverableEmail('Valid email required'),
  workAddress: text(
    'Complete work address required',
    z.minLength(10, 'Complete work address required'),
    z.maxLength(200, 'Address is too long'),
  ),
  yearsExp: z.number({ error: 'Years of experience required' }).check(
    z.int('Years of experience required'),
    z.gte(0, 'Years of experience required'),
    z.lte(50, 'Years of experience required'),
  ),
  categories: categoryList('At least one service category required'),
  hourlyRate: z.number({ error: 'Hourly rate must be at least $15' }).check(
    z.gte(15, 'Hourly rate must be at least $15'),
    z.lte(200, 'Hourly rate seems too high'),
  ),
  ssnLast4: z.string({ error: 'Last 4 digits of SSN required' }).check(z.regex(/^\d{4}$/, 'Last 4 digits of SSN required')),
  legalDisclaimerAccepted: accepted('Legal disclaimer must be accepted'),
  idFrontPhoto: uploadKey('Valid ID front photo required'),
  idBackPhoto: uploadKey('Valid ID back photo required'),
  selfie: uploadKey(MISSING_ID_DOCUMENTS),
});
export type WorkerApplyLegacyInput = z.infer<typeof workerApplyLegacySchema>;

export const businessTypes = [
  'Construction',
  'Property Management',
  'Facility Management',
  'Real Estate',
  'Maintenance Services',
  'Other',
] as const;
export const companyWorkerTypes = ['Plumbing', 'Electrical', 'Painting', 'Construction', 'Handyman', 'Cleaning'] as const;
export const typicalWorkerCounts = ['1-5', '5-10', '10+'] as const;
export const projectDurations = ['1-4 hours', '4-8 hours', '1 day', '2-3 days', '1 week+'] as const;

const optionalUpload = z.optional(
  z.union([z.literal(''), z.string().check(z.regex(uploadKeyPattern, 'Upload the document again'))]),
);

export const companyApplicationSchema = strictBody({
  companyName: text('Company name is required', z.minLength(2, 'Company name is required'), z.maxLength(120, 'Company name is too long')),
  businessType: z.enum(businessTypes, { error: 'Please select a business type' }),
  contactPersonName: text(
    'Contact name is required',
    z.minLength(2, 'Contact name is required'),
    z.maxLength(100, 'Contact name is too long'),
  ),
  phoneNumber: phone('Valid phone number is required'),
  emailAddress: deliverableEmail('Valid email is required'),
  companyAddress: text(
    'Company address is required',
    z.minLength(5, 'Company address is required'),
    z.maxLength(200, 'Address is too long'),
  ),
  einTaxId: z.optional(z.string().check(z.trim(), z.maxLength(20, 'EIN is too long'))),
  workerTypesNeeded: choices(companyWorkerTypes, {
    invalid: 'Select at least one worker type',
    required: 'Select at least one worker type',
    duplicate: 'Select each worker type once',
  }),
  typicalWorkerCount: z.enum(typicalWorkerCounts, { error: 'Select how many workers you typically need' }),
  averageProjectDuration: z.enum(projectDurations, { error: 'Select a typical project duration' }),
  billingContactName: z.optional(z.string().check(z.trim(), z.maxLength(100, 'Billing contact name is too long'))),
  billingContactEmail: z.optional(
    z.union([z.literal(''), email('Billing email must be a valid email or empty')], {
      error: 'Billing email must be a valid email or empty',
    }),
  ),
  agreementAccepted: accepted('You must accept the agreement'),
  businessLicenseUrl: optionalUpload,
  insuranceCertificateUrl: optionalUpload,
});
export type CompanyApplicationInput = z.infer<typeof companyApplicationSchema>;


/** The owner's notes on a company application, as the company reads them on its status page. */
const reviewNotes = z.string({ error: 'Notes must be text' }).check(
  z.trim(),
  z.maxLength(COMPANY_REVIEW_NOTES_MAX, `Notes must be at most ${COMPANY_REVIEW_NOTES_MAX} characters`),
);

/** POST /api/admin/company-applications/{id}/approve: notes are optional. */
export const companyApprovalSchema = strictBody({ notes: z.optional(reviewNotes) });
export type CompanyApprovalInput = z.infer<typeof companyApprovalSchema>;

/** POST /api/admin/company-applications/{id}/reject: the company is told why, so notes are required. */
export const companyRejectionSchema = strictBody({
  notes: z.string({ error: COMPANY_REJECT_NOTES_REQUIRED }).check(
    z.trim(),
    z.minLength(1, COMPANY_REJECT_NOTES_REQUIRED),
    z.maxLength(COMPANY_REVIEW_NOTES_MAX, `Notes must be at most ${COMPANY_REVIEW_NOTES_MAX} characters`),
  ),
});
export type CompanyRejectionInput = z.infer<typeof companyRejectionSchema>;

/** POST /api/admin/workers/{id}/reject: the applicant is told why (their review screen), so notes are required. */
export const workerRejectionSchema = strictBody({
  notes: z.string({ error: WORKER_REJECT_NOTES_REQUIRED }).check(
    z.trim(),
    z.minLength(1, WORKER_REJECT_NOTES_REQUIRED),
    z.maxLength(COMPANY_REVIEW_NOTES_MAX, `Notes must be at most ${COMPANY_REVIEW_NOTES_MAX} characters`),
  ),
});
export type WorkerRejectionInput = z.infer<typeof workerRejectionSchema>;

/** POST /api/upload: ask for a presigned POST for one file (it never passes through a Lambda). */
export const uploadRequestSchema = strictBody({
  type: z.enum(uploadTypes, { error: 'type must be worker-documents, company-documents or profile-photos' }),
  contentType: z.string({ error: 'Only PDF, JPG and PNG files are accepted' }),
  size: z.number({ error: 'size must be the file size in bytes' }).check(
    z.int('size must be the file size in bytes'),
    z.gte(1, 'The file is empty'),
    z.lte(10 * 1024 * 1024, 'Files must be at most 10 MB'),
  ),
}).check(
  z.refine((v) => (uploadContentTypes[v.type] as readonly string[] | undefined)?.includes(v.contentType) ?? true, {
    message: 'This file type is not accepted here',
    path: ['contentType'],
    when: (payload) => typeof payload.value === 'object' && payload.value !== null && !payload.issues.length,
  }),
);
export type UploadRequest = z.infer<typeof uploadRequestSchema>;

