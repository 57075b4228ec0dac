/**
 * Worker compliance documents' plain rules: no schema library here, so repositories,
 * the expiry job and the screens can use them without bundling the forms' schemas.
 */
export const documentTypes = ['legal', 'tax', 'general'] as const;
export type DocumentType = (typeof documentTypes)[number];

export const documentStatuses = ['uploaded', 'pending_review', 'approved', 'rejected', 'expired'] as const;
export type DocumentStatus = (typeof documentStatuses)[number];

export const documentUserTypes = ['worker', 'customer', 'both'] as const;
export type DocumentUserType = (typeof documentUserTypes)[number];

/** Every format a category may allow, by file extension, with the one content type each is sent as. */
export const documentFormats = {
  pdf: 'application/pdf',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  txt: 'text/plain',
} as const;
export type DocumentFormat = keyof typeof documentFormats;
export const documentFormatNames = Object.keys(documentFormats) as DocumentFormat[];

export const downloadModes = ['view', 'download'] as const;
export type DownloadMode = (typeof downloadModes)[number];

/** The limits for a category that names none of its own. */
export const DEFAULT_MAX_FILE_SIZE_MB = 10;
export const DEFAULT_ALLOWED_FORMATS: readonly DocumentFormat[] = ['pdf', 'doc', 'docx', 'jpg', 'jpeg', 'png'];

/** A document expiring within this many days (and not yet past) is "expiring soon". */
export const EXPIRING_SOON_DAYS = 30;
/** The worker is told this many days before a document expires (once each). */
export const EXPIRY_REMINDER_DAYS = [30, 7] as const;
/** GET /api/documents/expiring/{days}: 1 to 365. */
export const MAX_EXPIRING_DAYS = 365;
/** A presigned download link lives at most 5 minutes, so a copied or leaked link soon stops working. */
export const DOWNLOAD_URL_SECONDS = 300;
/** A presigned upload policy lives 5 minutes; the intent to confirm it, an hour. */
export const UPLOAD_POLICY_SECONDS = 300;

export const SELECT_FILE_AND_CATEGORY = 'Please select a file and category';
export const REJECT_NOTES_REQUIRED = 'Notes are required to reject a document';

export const datePattern = /^\d{4}-\d{2}-\d{2}$/;

/** Today as YYYY-MM-DD in UTC, the calendar the server keeps expiry dates in. */
export function todayUtc(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** A real calendar date in YYYY-MM-DD (2026-02-30 is not). */
export function isCalendarDate(value: string): boolean {
  if (!datePattern.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** The lower-case extension of a file name ('' when it has none). */
export function fileExtension(filename: string): string {
  const dot = filename.lastIndexOf('.');
  return dot < 0 ? '' : filename.slice(dot + 1).toLowerCase();
}
