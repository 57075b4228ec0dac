import { createHash } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { documentCategoryById, isRequiredOf, toCategoryView, workerDocumentCategories, type DocumentCategory } from '../../shared/document-categories';
import {
  SIGNATURE_BYTES,
  expiresWithin,
  isValidDocument,
  matchesFormat,
  missingRequired,
  notRealMessage,
  type DocumentFacts,
} from '../../shared/domain/documents';
import {
  DOWNLOAD_URL_SECONDS,
  todayUtc,
  type DownloadMode,
} from '../../shared/schemas/document-rules';
import type { DocumentCategoryView, DocumentDownload, DocumentView } from '../../shared/schemas/documents';
import type { Unindexed } from '../../shared/entities';
import { clientAddress } from '../common/client-address';
import { dispatchIndex, offersPaused } from '../jobs/data/dispatch-index';
import { DOCUMENT_UPLOADS_PREFIX, documentAccessLog, documentsRepo, type AccessType, type DocumentItem, type DocumentUploadItem } from './data/documents';
import type { WorkerItem } from '../workers/data/workers';
import { BadRequestError, ConflictError, NotFoundError } from '../common/errors';
import { logger } from '../common/logger';
import { deleteObject, headObject, ObjectTooLargeError, objectExists, presignDownload, readObject } from '../common/storage';
import { isTransient, orUnavailable } from '../common/transient';

/** What a person is told when S3 cannot be reached (the SDK has already retried). */
export const STORAGE_UNREACHABLE = 'Document storage cannot be reached right now.';

/**
 * Worker compliance documents: the steps the document routes share. Files go straight
 * to the bucket on the way in; confirming reads the upload back once, checks those bytes (size,
 * first bytes, SHA-256) and writes exactly them to a key of their own before a record exists, so
 * a record always names a real file of its declared type, the one that was checked.
 */

export const NO_SUCH_DOCUMENT = 'No such document.';

export function facts(doc: DocumentItem): DocumentFacts {
  return {
    id: doc.id,
    categoryId: doc.categoryId,
    status: doc.status,
    expirationDate: doc.expirationDate,
    isLatestVersion: doc.isLatestVersion,
    deleted: Boolean(doc.deletedAt),
  };
}

export function toDocumentView(doc: DocumentItem, today = todayUtc()): DocumentView {
  return {
    id: doc.id,
    workerId: doc.workerId,
    categoryId: doc.categoryId,
    categoryName: doc.categoryName,
    documentType: doc.documentType,
    filename: doc.filename,
    displayName: doc.displayName,
    description: doc.description,
    fileSize: doc.fileSize,
    mimeType: doc.mimeType,
    status: doc.status,
    expirationDate: doc.expirationDate,
    expiringSoon: doc.status !== 'expired' && expiresWithin(doc.expirationDate, today),
    reviewNotes: doc.reviewNotes,
    reviewedAt: doc.reviewedAt,
    version: doc.version,
    parentDocumentId: doc.parentDocumentId,
    isLatestVersion: doc.isLatestVersion,
    createdAt: doc.createdAt,
  };
}

/** The latest version of each document, not deleted: what the lists show. */
export function currentOf(docs: readonly DocumentItem[]): DocumentItem[] {
  return docs.filter((d) => d.isLatestVersion && !d.deletedAt);
}

/** The lists' filters, as the query string gives them (shared/schemas/query.ts `documentFilters`). */
export interface DocumentFilters {
  categoryId?: string;
  status?: string;
  documentType?: string;
  workerId?: string;
}

export function applyFilters(docs: readonly DocumentItem[], filters: DocumentFilters): DocumentItem[] {
  return docs.filter(
    (d) =>
      (!filters.categoryId || d.categoryId === filters.categoryId) &&
      (!filters.status || d.status === filters.status) &&
      (!filters.documentType || d.documentType === filters.documentType) &&
      (!filters.workerId || d.workerId === filters.workerId),
  );
}

/** Newest first, as the lists show them. */
export const newestFirst = (a: DocumentItem, b: DocumentItem) => b.createdAt.localeCompare(a.createdAt);

export function categoryOf(doc: Pick<DocumentItem, 'categoryId'>): DocumentCategory {
  const category = documentCategoryById(doc.categoryId);
  if (!category) throw new Error(`Document category ${doc.categoryId} is not in shared/document-categories.ts`);
  return category;
}

/**
 * The object key a document upload's presigned POST may write: under the worker's own prefix,
 * never the file's own name. Only uploads live under document-uploads/; no presigned POST is ever
 * handed out for a key under documents/.
 */
export function uploadKey(workerId: string, uploadId: string, extension: string): string {
  return `${DOCUMENT_UPLOADS_PREFIX}${workerId}/${uploadId}/file.${extension}`;
}

/**
 * Where a confirmed document's file lives: the bytes the confirm checked, written by the confirm
 * itself. Named by their SHA-256, so two confirms of one upload racing with different bytes cannot
 * leave a record whose hash is not that of the file it names.
 */
export function storedKey(upload: Pick<DocumentUploadItem, 'workerId' | 'uploadId' | 'format'>, contentHash: string): string {
  return `documents/${upload.workerId}/${upload.uploadId}/${contentHash}.${upload.format}`;
}

/** Where a deleted document's file is kept for its category's retention period (a lifecycle rule per period). */
export function retainedKey(doc: DocumentItem, years: number): string {
  return `retained/${years}y/${doc.workerId}/${doc.id}/file.${doc.format}`;
}

// ---- Confirming an upload ----------------------------------------------------------------------

export interface VerifiedFile {
  size: number;
  contentHash: string;
  /** The bytes that were checked: what the document's file is made of, never the upload's key again. */
  bytes: Uint8Array;
}

async function refuse(key: string, error: Error): Promise<never> {
  await deleteObject(key).catch((e: Error) => logger.warn('Could not delete a refused upload', { errorName: e?.name }));
  throw error;
}

/** Whether the bytes are UTF-8 without NUL bytes. */
function isPlainText(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * Reads the uploaded object once and checks those bytes against what the worker declared: within
 * the size limit, not empty, their first bytes those of the format (plain text: UTF-8 without NUL
 * throughout), and answers them with their SHA-256. Every check is of the bytes answered, so the
 * presigned POST, still valid for minutes, cannot change what was checked. A refused object is
 * deleted before the 4xx.
 */
export async function verifyUploadedFile(upload: DocumentUploadItem): Promise<VerifiedFile> {
  const tooLarge = new BadRequestError(`The file is larger than ${Math.round(upload.maxBytes / 1024 / 1024)} MB. Choose a smaller file.`);
  const stored = await headObject(upload.key);
  if (!stored) throw new ConflictError('The upload did not arrive. Upload the file again, then confirm.');
  if (stored.size > upload.maxBytes) await refuse(upload.key, tooLarge);
  let bytes: Uint8Array;
  try {
    ({ bytes } = await readObject(upload.key, upload.maxBytes));
  } catch (error) {
    // Storage failing mid-read says nothing about the file: it stays, for the confirm to be retried.
    if (isTransient(error)) throw error;
    return refuse(upload.key, error instanceof ObjectTooLargeError ? tooLarge : new BadRequestError('The file could not be read. Upload it again.'));
  }
  if (bytes.length === 0) await refuse(upload.key, new BadRequestError('The file is empty. Choose the file again.'));
  if (!matchesFormat(upload.format, bytes.subarray(0, SIGNATURE_BYTES))) await refuse(upload.key, new BadRequestError(notRealMessage(upload.format)));
  if (upload.format === 'txt' && !isPlainText(bytes)) await refuse(upload.key, new BadRequestError(notRealMessage('txt')));
  return { size: bytes.length, contentHash: createHash('sha256').update(bytes).digest('hex'), bytes };
}

/** The document a confirmed upload becomes (its id is the upload's). */
export function documentFromUpload(
  upload: DocumentUploadItem,
  file: VerifiedFile,
  category: DocumentCategory,
  status: DocumentItem['status'],
  previous: DocumentItem | undefined,
  at: string,
  key: string,
): Omit<Unindexed<DocumentItem>, 'pk' | 'sk' | 'entity' | 'updatedAt'> {
  return {
    id: upload.uploadId,
    workerId: upload.workerId,
    categoryId: category.id,
    categoryName: category.name,
    documentType: category.documentType,
    filename: upload.filename,
    displayName: upload.displayName,
    description: upload.description,
    fileSize: file.size,
    mimeType: upload.contentType,
    format: upload.format,
    key,
    contentHash: file.contentHash,
    status,
    expirationDate: upload.expirationDate,
    reviewNotes: null,
    reviewedAt: null,
    reviewedBy: null,
    version: previous ? previous.version + 1 : 1,
    parentDocumentId: previous?.id ?? null,
    isLatestVersion: true,
    createdAt: at,
  };
}

// ---- Downloads ---------------------------------------------------------------------------------

/** `inline` or `attachment` with the document's own name, ASCII-safe and in full (RFC 6266). */
export function contentDisposition(mode: DownloadMode, filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${mode === 'view' ? 'inline' : 'attachment'}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

export interface Accessor {
  userId: string;
  role: 'worker' | 'admin';
}

function requestOrigin(event: APIGatewayProxyEventV2) {
  const http = event.requestContext?.http;
  return { ipAddress: http ? clientAddress(event) : null, userAgent: http?.userAgent ? http.userAgent.slice(0, 500) : null };
}

/** Writes the access-log row of one view or download (ids, role, address, agent; never the URL). */
export async function logAccess(doc: Pick<DocumentItem, 'id'>, who: Accessor, accessType: AccessType, success: boolean, event: APIGatewayProxyEventV2): Promise<void> {
  await documentAccessLog.record({
    documentId: doc.id,
    userId: who.userId,
    role: who.role,
    accessType,
    success,
    at: new Date().toISOString(),
    ...requestOrigin(event),
  });
}

/** A presigned GET of the document (5 minutes at most), logged as a view or a download. */
export async function downloadLink(doc: DocumentItem, mode: DownloadMode, who: Accessor, event: APIGatewayProxyEventV2): Promise<DocumentDownload> {
  try {
    // Presigning alone never reaches S3: a link to a file storage cannot serve (unreachable, or the
    // object gone) would only fail in the new tab, where no message can be shown.
    const there = await orUnavailable(STORAGE_UNREACHABLE, () => objectExists(doc.key));
    if (!there) throw new NotFoundError('The file of this document is missing from storage. Upload it again.');
    const link = await presignDownload(doc.key, DOWNLOAD_URL_SECONDS, {
      contentDisposition: contentDisposition(mode, doc.filename),
      contentType: doc.mimeType,
    });
    await logAccess(doc, who, mode, true, event);
    return { downloadUrl: link.url, expiresAt: link.expiresAt, filename: doc.filename };
  } catch (error) {
    await logAccess(doc, who, mode, false, event).catch(() => undefined);
    throw error;
  }
}

// ---- Compliance --------------------------------------------------------------------------------

export function requiredCategoriesOf(worker: Pick<WorkerItem, 'categories'>): DocumentCategory[] {
  return workerDocumentCategories().filter((c) => isRequiredOf(c, worker.categories));
}

export interface Compliance {
  documents: DocumentView[];
  missingRequired: DocumentCategoryView[];
  expiring: DocumentView[];
  pendingReviewCount: number;
  offersPaused: boolean;
}

/** What the owner sees of one worker: current documents, required ones missing, the expiring ones, the pause. */
export function complianceOf(worker: WorkerItem, docs: readonly DocumentItem[], today = todayUtc()): Compliance {
  const current = currentOf(docs).sort(newestFirst);
  const views = current.map((d) => toDocumentView(d, today));
  return {
    documents: views,
    missingRequired: missingRequired(requiredCategoriesOf(worker), current.map(facts), today).map(toCategoryView),
    expiring: views.filter((v) => v.expiringSoon),
    pendingReviewCount: current.filter((d) => d.status === 'pending_review').length,
    offersPaused: offersPaused(worker),
  };
}

/** Whether the worker holds another approved, unexpired document of the category than `except`. */
export function hasOtherValid(docs: readonly DocumentItem[], categoryId: string, except: string, today: string): boolean {
  return docs.some((d) => d.id !== except && d.categoryId === categoryId && isValidDocument(facts(d), today));
}

/**
 * After an approval: a valid document of a paused category lifts that pause, and the worker is put
 * back in the dispatch index. Undefined when there was no pause to lift.
 */
export async function resumeOffersFor(doc: DocumentItem, at: string): Promise<WorkerItem | undefined> {
  if (!isValidDocument(facts(doc), todayUtc())) return undefined;
  const worker = await documentsRepo.resumeOffers(doc.workerId, doc.categoryId, at);
  if (worker) await dispatchIndex.sync(worker);
  return worker;
}

export function documentNotFound(): NotFoundError {
  return new NotFoundError(NO_SUCH_DOCUMENT);
}
