import * as z from 'zod/mini';
import { strictBody } from '../validation';
import {
  REJECT_NOTES_REQUIRED,
  SELECT_FILE_AND_CATEGORY,
  isCalendarDate,
  todayUtc,
} from './document-rules';

/** The views the document calls answer: zod schemas (the tests check answers with them), types here. */
export type {
  AdminDocumentPage,
  ComplianceResponse,
  ComplianceRow,
  DocumentCategoriesResponse,
  DocumentCategoryView,
  DocumentDownload,
  DocumentListResponse,
  DocumentUploadTicket,
  DocumentView,
  WorkerCompliance,
} from './views/documents';

/**
 * Worker compliance documents: the shapes both the
 * handlers and the Documents tab use.
 */
export * from './document-rules';

const optionalText = (field: string, max: number) =>
  z.optional(
    z.string({ error: `${field} must be text` }).check(z.trim(), z.maxLength(max, `${field} must be at most ${max} characters`)),
  );

/** POST /api/documents/upload: what the worker is about to send, checked again at confirm. */
export const documentUploadSchema = strictBody({
  categoryId: z.string({ error: SELECT_FILE_AND_CATEGORY }).check(
    z.trim(),
    z.minLength(1, SELECT_FILE_AND_CATEGORY),
    z.maxLength(64, 'Choose a category from the list'),
  ),
  filename: z.string({ error: SELECT_FILE_AND_CATEGORY }).check(
    z.trim(),
    z.minLength(1, SELECT_FILE_AND_CATEGORY),
    z.maxLength(200, 'The file name must be at most 200 characters'),
  ),
  contentType: z.string({ error: 'Send the file type' }).check(
    z.trim(),
    z.toLowerCase(),
    z.minLength(1, 'Send the file type'),
    z.maxLength(200, 'The file type is not one we accept'),
  ),
  // The category's own limit is checked with the category; this bounds the number itself.
  fileSize: z.number({ error: SELECT_FILE_AND_CATEGORY }).check(
    z.int('The file size must be whole bytes'),
    z.gt(0, 'The file is empty'),
    z.lte(2 ** 30, 'The file is larger than any category accepts'),
  ),
  displayName: optionalText('Display name', 100),
  description: optionalText('Description', 500),
  expirationDate: z.optional(
    z.string({ error: 'Expiration date must be a date (YYYY-MM-DD)' }).check(
      z.refine(isCalendarDate, 'Expiration date must be a date (YYYY-MM-DD)'),
      z.refine((value) => value > todayUtc(), 'Expiration date must be after today'),
    ),
  ),
  replacesDocumentId: z.optional(
    z.string({ error: 'replacesDocumentId must be a document id' }).check(
      z.minLength(1, 'replacesDocumentId must be a document id'),
      z.maxLength(64, 'replacesDocumentId must be a document id'),
    ),
  ),
});
export type DocumentUploadInput = z.infer<typeof documentUploadSchema>;

/** POST /api/admin/documents/{id}/review. */
export const documentReviewSchema = strictBody({
  decision: z.enum(['approve', 'reject'], { error: 'Choose approve or reject' }),
  notes: optionalText('Notes', 1000),
}).check(
  z.refine((value) => value.decision === 'approve' || (value.notes ?? '').length > 0, {
    message: REJECT_NOTES_REQUIRED,
    path: ['notes'],
  }),
);
export type DocumentReviewInput = z.infer<typeof documentReviewSchema>;

