import type { DocumentCategory } from '../document-categories';
import {
  EXPIRING_SOON_DAYS,
  documentFormats,
  fileExtension,
  type DocumentFormat,
  type DocumentStatus,
} from '../schemas/document-rules';

/**
 * The plain rules of compliance documents: what an upload may be, what its first bytes
 * must look like, when a document is expiring, expired or valid, and what a worker is missing.
 */

const MB = 1024 * 1024;
export const maxBytesOf = (category: DocumentCategory) => category.maxFileSizeMB * MB;

const formatList = (formats: readonly string[]) => formats.map((f) => f.toUpperCase()).join(', ');

export interface UploadClaim {
  filename: string;
  contentType: string;
  fileSize: number;
  expirationDate?: string;
}

/**
 * Field messages for an upload the category does not take (empty when it does): the file's
 * extension must be an allowed format, its content type the one of that extension, its size
 * within the limit, and an expiration date given where the category needs one.
 */
export function uploadProblems(category: DocumentCategory, claim: UploadClaim): Record<string, string> {
  const problems: Record<string, string> = {};
  const extension = fileExtension(claim.filename);
  if (!(category.allowedFormats as readonly string[]).includes(extension)) {
    problems.filename = `${category.name} accepts ${formatList(category.allowedFormats)} files.`;
  } else if (documentFormats[extension as DocumentFormat] !== claim.contentType) {
    problems.contentType = `A .${extension} file is sent as ${documentFormats[extension as DocumentFormat]}; choose the original file.`;
  }
  if (claim.fileSize > maxBytesOf(category)) {
    problems.fileSize = `The file is larger than ${category.maxFileSizeMB} MB. Choose a smaller file.`;
  }
  if (category.expirationRequired && !claim.expirationDate) {
    problems.expirationDate = `${category.name} needs its expiration date.`;
  }
  return problems;
}

/** Every required category waits for the owner's review; optional ones are simply uploaded. */
export function statusAfterConfirm(category: DocumentCategory): DocumentStatus {
  return category.isRequired ? 'pending_review' : 'uploaded';
}

const signatures: Partial<Record<DocumentFormat, readonly number[]>> = {
  pdf: [0x25, 0x50, 0x44, 0x46, 0x2d], // %PDF-
  png: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  jpg: [0xff, 0xd8, 0xff],
  jpeg: [0xff, 0xd8, 0xff],
  docx: [0x50, 0x4b, 0x03, 0x04], // a ZIP container
  doc: [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], // an OLE compound file
};

/** How many leading bytes the check needs to see. */
export const SIGNATURE_BYTES = 1024;

/**
 * Whether a file's first bytes are those of its declared format: an HTML page named .png is not a
 * PNG. Plain text has no signature: its first bytes must be UTF-8 without NUL bytes (the whole
 * file is checked the same way while it is hashed, see isPlainTextChunk).
 */
export function matchesFormat(format: DocumentFormat, head: Uint8Array): boolean {
  if (format === 'txt') return head.length > 0 && !head.includes(0);
  const signature = signatures[format];
  return signature !== undefined && head.length >= signature.length && signature.every((byte, i) => head[i] === byte);
}

const FORMAT_NAMES: Record<DocumentFormat, string> = {
  pdf: 'PDF',
  doc: 'Word document',
  docx: 'Word document',
  jpg: 'JPEG image',
  jpeg: 'JPEG image',
  png: 'PNG image',
  txt: 'plain text file',
};

export function notRealMessage(format: DocumentFormat): string {
  return `The file is not a real ${FORMAT_NAMES[format]}. Choose the original file and upload it again.`;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Whole days from `today` to `date` (both YYYY-MM-DD): 0 on the day, negative once past. */
export function daysUntil(date: string, today: string): number {
  return Math.round((Date.parse(`${date}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / DAY_MS);
}

export function addDays(today: string, days: number): string {
  return new Date(Date.parse(`${today}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** A document is valid through its expiration date and expired from the day after. */
export function isPastExpiry(expirationDate: string | null, today: string): boolean {
  return expirationDate !== null && expirationDate < today;
}

/** Expires within `days` (30 for "expiring soon") and not yet past. */
export function expiresWithin(expirationDate: string | null, today: string, days = EXPIRING_SOON_DAYS): boolean {
  if (expirationDate === null || isPastExpiry(expirationDate, today)) return false;
  return daysUntil(expirationDate, today) <= days;
}

export interface DocumentFacts {
  id: string;
  categoryId: string;
  status: DocumentStatus;
  expirationDate: string | null;
  isLatestVersion: boolean;
  deleted: boolean;
}

/** Approved, current and not past its date: what keeps a worker's offers coming. */
export function isValidDocument(doc: DocumentFacts, today: string): boolean {
  return doc.status === 'approved' && !doc.deleted && !isPastExpiry(doc.expirationDate, today);
}

/** Held (latest version, not deleted) and neither rejected nor expired: the category is covered. */
export function coversCategory(doc: DocumentFacts, today: string): boolean {
  return (
    doc.isLatestVersion &&
    !doc.deleted &&
    doc.status !== 'rejected' &&
    doc.status !== 'expired' &&
    !isPastExpiry(doc.expirationDate, today)
  );
}

/** The required categories the worker holds no covering document of. */
export function missingRequired<C extends DocumentCategory>(
  required: readonly C[],
  docs: readonly DocumentFacts[],
  today: string,
): C[] {
  return required.filter((c) => !docs.some((d) => d.categoryId === c.id && coversCategory(d, today)));
}

/** The reminder due today for a document, if any: 7 days before, else 30 days before, each once. */
export function reminderDue(
  expirationDate: string,
  today: string,
  sent: { reminded30: boolean; reminded7: boolean },
): 7 | 30 | undefined {
  const days = daysUntil(expirationDate, today);
  if (days < 0) return undefined;
  if (days <= 7) return sent.reminded7 ? undefined : 7;
  if (days <= 30) return sent.reminded30 ? undefined : 30;
  return undefined;
}

/** The states the owner may decide on. */
export const reviewableStatuses: readonly DocumentStatus[] = ['pending_review', 'uploaded'];
