import * as z from 'zod/mini';
import { documentStatuses, documentTypes, documentUserTypes } from '../document-rules';

/**
 * The answers about worker compliance documents, for the handlers and the Documents tabs. Strict
 * objects: a field no view names (a storage key) fails the tests that check answers.
 */

export const documentCategoryView = z.strictObject({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  documentType: z.enum(documentTypes),
  userType: z.enum(documentUserTypes),
  isRequired: z.boolean(),
  expirationRequired: z.boolean(),
  maxFileSizeMB: z.number(),
  /** File extensions, e.g. 'pdf', 'jpg'. */
  allowedFormats: z.array(z.string()),
  displayOrder: z.number(),
});
export type DocumentCategoryView = z.infer<typeof documentCategoryView>;

export const documentView = z.strictObject({
  id: z.string(),
  workerId: z.string(),
  categoryId: z.string(),
  categoryName: z.string(),
  documentType: z.enum(documentTypes),
  filename: z.string(),
  displayName: z.nullable(z.string()),
  description: z.nullable(z.string()),
  /** Bytes. */
  fileSize: z.number(),
  mimeType: z.string(),
  status: z.enum(documentStatuses),
  /** YYYY-MM-DD or null. */
  expirationDate: z.nullable(z.string()),
  /** Expires within 30 days and not yet past. */
  expiringSoon: z.boolean(),
  reviewNotes: z.nullable(z.string()),
  reviewedAt: z.nullable(z.string()),
  version: z.number(),
  parentDocumentId: z.nullable(z.string()),
  isLatestVersion: z.boolean(),
  createdAt: z.string(),
});
export type DocumentView = z.infer<typeof documentView>;

/** One document: what a confirmed upload and a review answer. */
export const documentResult = z.strictObject({ document: documentView });

export const documentUploadTicket = z.strictObject({
  uploadId: z.string(),
  url: z.string(),
  fields: z.record(z.string(), z.string()),
  key: z.string(),
  expiresAt: z.string(),
  maxBytes: z.number(),
});
export type DocumentUploadTicket = z.infer<typeof documentUploadTicket>;

export const documentDownload = z.strictObject({
  downloadUrl: z.string(),
  expiresAt: z.string(),
  filename: z.string(),
});
export type DocumentDownload = z.infer<typeof documentDownload>;

export const documentListResponse = z.strictObject({ documents: z.array(documentView) });
export type DocumentListResponse = z.infer<typeof documentListResponse>;

export const documentCategoriesResponse = z.strictObject({ categories: z.array(documentCategoryView) });
export type DocumentCategoriesResponse = z.infer<typeof documentCategoriesResponse>;

export const workerCompliance = z.strictObject({
  worker: z.strictObject({ id: z.string(), fullName: z.string() }),
  documents: z.array(documentView),
  missingRequired: z.array(documentCategoryView),
  expiring: z.array(documentView),
  offersPaused: z.boolean(),
});
export type WorkerCompliance = z.infer<typeof workerCompliance>;

export const complianceRow = z.strictObject({
  workerId: z.string(),
  fullName: z.string(),
  /** Category names. */
  missingRequired: z.array(z.string()),
  expiringCount: z.number(),
  pendingReviewCount: z.number(),
  offersPaused: z.boolean(),
});
export type ComplianceRow = z.infer<typeof complianceRow>;

/** The owner's compliance table, a page of workers at a time (newest worker first). */
export const complianceResponse = z.strictObject({ items: z.array(complianceRow), nextCursor: z.nullable(z.string()) });
export type ComplianceResponse = z.infer<typeof complianceResponse>;

/**
 * The owner's documents list, a page at a time (newest first), with the names of the workers the
 * page's documents belong to (read for that page only), so a document reads "of <name>" without
 * the whole compliance table.
 */
export const adminDocumentPage = z.strictObject({
  items: z.array(documentView),
  nextCursor: z.nullable(z.string()),
  workerNames: z.record(z.string(), z.string()),
});
export type AdminDocumentPage = z.infer<typeof adminDocumentPage>;
