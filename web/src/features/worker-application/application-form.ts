import type { CategorySlug } from '../../../../shared/categories';
import { workerApplicationSchema, type WorkerApplicationInput } from '../../../../shared/schemas/applications';
import { validate } from '../../../../shared/validation';

/** The category names the application shows (handyman is "General Handyman"). */
export const serviceOptions: readonly { slug: CategorySlug; name: string }[] = [
  { slug: 'plumbing', name: 'Plumbing' },
  { slug: 'electrical', name: 'Electrical' },
  { slug: 'construction', name: 'Construction' },
  { slug: 'painting', name: 'Painting' },
  { slug: 'handyman', name: 'General Handyman' },
  { slug: 'cleaning', name: 'Cleaning' },
];

export const documentFields = ['photoIdFrontUrl', 'photoIdBackUrl', 'selfieUrl'] as const;
export type DocumentField = (typeof documentFields)[number];

export const agreementFields = [
  'workerAgreement',
  'workQualityAgreement',
  'timelinessAgreement',
  'liabilityAgreement',
  'legalDisclaimerAccepted',
] as const;
export type AgreementField = (typeof agreementFields)[number];

/** The fields in the order they appear, so the first invalid one takes focus. */
export const applicationFieldOrder = [
  'fullName',
  'phoneNumber',
  'emailAddress',
  'homeAddress',
  'yearsExperience',
  'servicesProvided',
  'hourlyRate',
  'ssnLastFour',
  'workingHours',
  'availableSameDay',
  ...documentFields,
  ...agreementFields,
] as const;
export type ApplicationField = (typeof applicationFieldOrder)[number];

export interface ApplicationValues {
  fullName: string;
  phoneNumber: string;
  emailAddress: string;
  homeAddress: string;
  yearsExperience: string;
  servicesProvided: CategorySlug[];
  /** Dollars as typed (step 0.50, 15-200, default 25); sent as cents. */
  hourlyRate: string;
  ssnLastFour: string;
  workingHours: string;
  availableSameDay: boolean;
  workerAgreement: boolean;
  workQualityAgreement: boolean;
  timelinessAgreement: boolean;
  liabilityAgreement: boolean;
  legalDisclaimerAccepted: boolean;
}

export const initialApplicationValues: ApplicationValues = {
  fullName: '',
  phoneNumber: '',
  emailAddress: '',
  homeAddress: '',
  yearsExperience: '0',
  servicesProvided: [],
  hourlyRate: '25',
  ssnLastFour: '',
  workingHours: '',
  availableSameDay: false,
  workerAgreement: false,
  workQualityAgreement: false,
  timelinessAgreement: false,
  liabilityAgreement: false,
  legalDisclaimerAccepted: false,
};

/** Dollars as typed to whole cents (rate x 100, rounded); empty or not a number stays undefined. */
export function dollarsToCents(value: string): number | undefined {
  if (value.trim() === '') return undefined;
  const dollars = Number(value);
  return Number.isFinite(dollars) ? Math.round(dollars * 100) : undefined;
}

function wholeNumber(value: string): number | undefined {
  if (value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

/** The request body the form would send, with an upload key (or nothing) per document. */
export function applicationCandidate(values: ApplicationValues, keys: Partial<Record<DocumentField, string>>): Record<string, unknown> {
  return {
    ...values,
    yearsExperience: wholeNumber(values.yearsExperience),
    hourlyRate: dollarsToCents(values.hourlyRate),
    ...keys,
  };
}

export type ApplicationResult = { ok: true; input: WorkerApplicationInput } | { ok: false; errors: Record<string, string> };

/** Validates with the server's own schema. */
export function validateApplication(values: ApplicationValues, keys: Partial<Record<DocumentField, string>>): ApplicationResult {
  const result = validate(workerApplicationSchema, applicationCandidate(values, keys));
  return result.success ? { ok: true, input: result.data } : { ok: false, errors: result.fields };
}
