import {
  DEFAULT_ALLOWED_FORMATS,
  DEFAULT_MAX_FILE_SIZE_MB,
  type DocumentFormat,
  type DocumentType,
  type DocumentUserType,
} from './schemas/document-rules';
import type { DocumentCategoryView } from './schemas/documents';

/**
 * The compliance documents a US home-services platform collects from its pros. Kept as
 * code, not table items: the upload checks, the owner's compliance view, the daily expiry job and
 * the CDK lifecycle rules for retained copies all need the same list, without a read, and a change
 * to it is a change of policy that ships with the code that enforces it.
 */
export interface DocumentCategory {
  id: string;
  name: string;
  description: string;
  documentType: DocumentType;
  userType: DocumentUserType;
  isRequired: boolean;
  /**
   * Required only of pros working in these trades (shared/categories.ts slugs); absent: of every pro.
   * States license plumbers, electricians and contractors, not cleaners or handymen.
   */
  requiredForTrades?: readonly string[];
  expirationRequired: boolean;
  maxFileSizeMB: number;
  allowedFormats: readonly DocumentFormat[];
  displayOrder: number;
  /**
   * Years a deleted document's file is kept (under retained/<n>y/, expired by an S3 lifecycle rule)
   * because a record-keeping rule asks for it; absent: deleting removes the file at once.
   */
  retentionYears?: number;
}

const IMAGES_AND_PDF: readonly DocumentFormat[] = ['pdf', 'jpg', 'jpeg', 'png'];

export const documentCategories: readonly DocumentCategory[] = [
  {
    id: 'government-id',
    name: 'Government-issued photo ID',
    description: "A current driver's license, state ID card or passport, showing your photo, full name and expiration date.",
    documentType: 'legal',
    userType: 'worker',
    isRequired: true,
    expirationRequired: true,
    maxFileSizeMB: DEFAULT_MAX_FILE_SIZE_MB,
    allowedFormats: IMAGES_AND_PDF,
    displayOrder: 1,
  },
  {
    id: 'trade-license',
    name: 'Trade license',
    description:
      'Your state or local license for the trade you work in (plumbing, electrical or contracting), with its license number and expiration date.',
    documentType: 'legal',
    userType: 'worker',
    isRequired: true,
    requiredForTrades: ['plumbing', 'electrical', 'construction'],
    expirationRequired: true,
    maxFileSizeMB: DEFAULT_MAX_FILE_SIZE_MB,
    allowedFormats: IMAGES_AND_PDF,
    displayOrder: 2,
    retentionYears: 3,
  },
  {
    id: 'liability-insurance',
    name: 'General liability insurance certificate',
    description:
      'A certificate of insurance (ACORD 25 or your insurer\'s equivalent) showing general liability cover, the policy period and the insurer.',
    documentType: 'legal',
    userType: 'worker',
    isRequired: true,
    expirationRequired: true,
    maxFileSizeMB: DEFAULT_MAX_FILE_SIZE_MB,
    allowedFormats: IMAGES_AND_PDF,
    displayOrder: 3,
    retentionYears: 5,
  },
  {
    id: 'w9',
    name: 'Form W-9',
    description: 'IRS Form W-9 (Request for Taxpayer Identification Number and Certification), signed and dated, for 1099 reporting.',
    documentType: 'tax',
    userType: 'worker',
    isRequired: true,
    expirationRequired: false,
    maxFileSizeMB: DEFAULT_MAX_FILE_SIZE_MB,
    allowedFormats: IMAGES_AND_PDF,
    displayOrder: 4,
    // The IRS asks payers to keep W-9s for at least four years.
    retentionYears: 4,
  },
  {
    id: 'background-check-consent',
    name: 'Background check disclosure and authorization',
    description: 'The signed FCRA disclosure and your written authorization for us to obtain a background check.',
    documentType: 'legal',
    userType: 'worker',
    isRequired: true,
    expirationRequired: false,
    maxFileSizeMB: DEFAULT_MAX_FILE_SIZE_MB,
    allowedFormats: IMAGES_AND_PDF,
    displayOrder: 5,
    retentionYears: 5,
  },
  {
    id: 'workers-comp',
    name: "Workers' compensation certificate or exemption",
    description:
      "A certificate of workers' compensation insurance, or your state's exemption certificate if you work alone without employees.",
    documentType: 'legal',
    userType: 'worker',
    isRequired: true,
    expirationRequired: true,
    maxFileSizeMB: DEFAULT_MAX_FILE_SIZE_MB,
    allowedFormats: IMAGES_AND_PDF,
    displayOrder: 6,
    retentionYears: 5,
  },
  {
    id: 'certifications',
    name: 'Certifications and training',
    description: 'Optional: trade certifications and safety training such as EPA Lead-Safe (RRP), OSHA 10 or manufacturer certifications.',
    documentType: 'general',
    userType: 'worker',
    isRequired: false,
    expirationRequired: false,
    maxFileSizeMB: DEFAULT_MAX_FILE_SIZE_MB,
    allowedFormats: DEFAULT_ALLOWED_FORMATS,
    displayOrder: 7,
  },
  {
    id: 'other',
    name: 'Other supporting document',
    description: 'Optional: references, a portfolio summary or anything else that supports your profile.',
    documentType: 'general',
    userType: 'worker',
    isRequired: false,
    expirationRequired: false,
    maxFileSizeMB: DEFAULT_MAX_FILE_SIZE_MB,
    allowedFormats: [...DEFAULT_ALLOWED_FORMATS, 'txt'],
    displayOrder: 8,
  },
];

export function documentCategoryById(id: string): DocumentCategory | undefined {
  return documentCategories.find((c) => c.id === id);
}

/** Categories a worker may upload to. */
export function workerDocumentCategories(): DocumentCategory[] {
  return documentCategories.filter((c) => c.userType !== 'customer').sort((a, b) => a.displayOrder - b.displayOrder);
}

/** Whether a worker working in `trades` must hold a document of this category. */
export function isRequiredOf(category: DocumentCategory, trades: readonly string[]): boolean {
  if (!category.isRequired) return false;
  return !category.requiredForTrades || category.requiredForTrades.some((t) => trades.includes(t));
}

/** The distinct retention periods, for the bucket's lifecycle rules. */
export function retentionPeriods(): number[] {
  return [...new Set(documentCategories.flatMap((c) => (c.retentionYears ? [c.retentionYears] : [])))].sort((a, b) => a - b);
}

export function toCategoryView(c: DocumentCategory): DocumentCategoryView {
  return {
    id: c.id,
    name: c.name,
    description: c.description,
    documentType: c.documentType,
    userType: c.userType,
    isRequired: c.isRequired,
    expirationRequired: c.expirationRequired,
    maxFileSizeMB: c.maxFileSizeMB,
    allowedFormats: [...c.allowedFormats],
    displayOrder: c.displayOrder,
  };
}
