import { companyApplicationSchema, type CompanyApplicationInput } from '../../../../shared/schemas/applications';
import { validate } from '../../../../shared/validation';

export interface CompanyFormValues {
  companyName: string;
  businessType: string;
  contactPersonName: string;
  phoneNumber: string;
  emailAddress: string;
  companyAddress: string;
  einTaxId: string;
  workerTypesNeeded: string[];
  typicalWorkerCount: string;
  averageProjectDuration: string;
  billingContactName: string;
  billingContactEmail: string;
  agreementAccepted: boolean;
}

export const emptyCompanyForm: CompanyFormValues = {
  companyName: '',
  businessType: '',
  contactPersonName: '',
  phoneNumber: '',
  emailAddress: '',
  companyAddress: '',
  einTaxId: '',
  workerTypesNeeded: [],
  typicalWorkerCount: '',
  averageProjectDuration: '',
  billingContactName: '',
  billingContactEmail: '',
  agreementAccepted: false,
};

/** The fields in the order they appear, so the first invalid one can take focus. */
export const companyFieldOrder = [
  'companyName',
  'businessType',
  'contactPersonName',
  'phoneNumber',
  'emailAddress',
  'companyAddress',
  'einTaxId',
  'workerTypesNeeded',
  'typicalWorkerCount',
  'averageProjectDuration',
  'billingContactName',
  'billingContactEmail',
  'businessLicenseUrl',
  'insuranceCertificateUrl',
  'agreementAccepted',
] as const;
export type CompanyField = (typeof companyFieldOrder)[number];

export interface CompanyDocumentKeys {
  businessLicenseUrl?: string;
  insuranceCertificateUrl?: string;
}

export type CompanyFormResult = { ok: true; input: CompanyApplicationInput } | { ok: false; errors: Record<string, string> };

/**
 * Validates with the server's own schema from shared/, so the form says what the server would. Empty optional text is left out,
 * and each document is sent as the key its upload answered with, when there is one.
 */
export function validateCompanyApplication(values: CompanyFormValues, documents: CompanyDocumentKeys): CompanyFormResult {
  const optional = (name: 'einTaxId' | 'billingContactName' | 'billingContactEmail') =>
    values[name].trim() ? { [name]: values[name] } : {};
  const candidate = {
    companyName: values.companyName,
    businessType: values.businessType,
    contactPersonName: values.contactPersonName,
    phoneNumber: values.phoneNumber,
    emailAddress: values.emailAddress,
    companyAddress: values.companyAddress,
    ...optional('einTaxId'),
    workerTypesNeeded: values.workerTypesNeeded,
    typicalWorkerCount: values.typicalWorkerCount,
    averageProjectDuration: values.averageProjectDuration,
    ...optional('billingContactName'),
    ...optional('billingContactEmail'),
    agreementAccepted: values.agreementAccepted,
    ...(documents.businessLicenseUrl ? { businessLicenseUrl: documents.businessLicenseUrl } : {}),
    ...(documents.insuranceCertificateUrl ? { insuranceCertificateUrl: documents.insuranceCertificateUrl } : {}),
  };
  const result = validate(companyApplicationSchema, candidate);
  return result.success ? { ok: true, input: result.data } : { ok: false, errors: result.fields };
}

export function firstInvalidField(errors: Record<string, string>): CompanyField | undefined {
  return companyFieldOrder.find((field) => errors[field] || errors[`${field}.0`]);
}

/** Array item messages ("workerTypesNeeded.0") are shown on their list. */
export function foldItemErrors(errors: Record<string, string>): Record<string, string> {
  const folded: Record<string, string> = {};
  for (const [key, message] of Object.entries(errors)) {
    const field = key.split('.')[0]!;
    folded[field] ??= message;
  }
  return folded;
}
