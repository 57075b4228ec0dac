import { statusAfterConfirm } from '../../shared/domain/documents';
import { routeByName } from '../../shared/routes';
import type { DocumentView } from '../../shared/schemas/documents';
import { documentUploadsRepo, documentsRepo, newDocumentItem, type DocumentItem } from './data/documents';
import { categoryOf, documentFromUpload, documentNotFound, STORAGE_UNREACHABLE, storedKey, toDocumentView, verifyUploadedFile } from './documents';
import { deleteObject, putObject } from '../common/storage';
import { orUnavailable } from '../common/transient';
import { ConflictError, NotFoundError } from '../common/errors';
import { reply, http } from '../common/http';
import { logger } from '../common/logger';
import { documentAwaitingReview } from '../owner/owner-events';

const NO_SUCH_UPLOAD = 'No such upload, or it is more than an hour old. Upload the file again.';
const REPLACED_MEANWHILE = 'The document this replaces was deleted or replaced meanwhile. Upload it again as a new document.';

/** Best effort: a file left behind is only storage (the daily purge takes the upload's). */
async function forget(key: string): Promise<void> {
  await deleteObject(key).catch((error: Error) => logger.warn('Could not delete an upload file', { errorName: error?.name }));
}

/** The document this upload already became (a repeated or concurrent confirm), if it is the worker's. */
async function confirmedBefore(workerId: string, uploadId: string): Promise<DocumentItem | undefined> {
  const doc = await documentsRepo.findById(uploadId);
  if (doc && doc.workerId !== workerId) throw documentNotFound();
  return doc;
}

/**
 * The upload arrived: it is read once, those bytes checked against what was declared (a refused
 * file is deleted) and hashed, then written to a key of their own that no presigned POST can
 * write, and the document stored naming that key, as version 1 or as the next version of the one
 * it replaces (in one transaction). The upload's own file is deleted: the form that posted it stays
 * valid for minutes, so whatever it posts after is never served (the daily purge removes it, with
 * the upload item). Confirming again answers the same document.
 */
export const handler = http(routeByName('confirm-document-upload'), async ({ caller, params }) => {
  const workerId = caller.worker.id;
  const uploadId = params.uploadId;
  const existing = await confirmedBefore(workerId, uploadId);
  if (existing) return reply(201, { document: toDocumentView(existing) } satisfies { document: DocumentView });

  const upload = await documentUploadsRepo.findOpen(workerId, uploadId);
  if (!upload) throw new NotFoundError(NO_SUCH_UPLOAD);
  const category = categoryOf(upload);
  const previous = upload.replacesDocumentId ? await documentsRepo.findOwn(workerId, upload.replacesDocumentId) : undefined;
  if (upload.replacesDocumentId && !previous?.isLatestVersion) throw new ConflictError(REPLACED_MEANWHILE);
  // Nothing is stored for a file that could not be checked and kept: the upload stays for a retried confirm.
  const file = await orUnavailable(`${STORAGE_UNREACHABLE} Your upload is kept.`, () => verifyUploadedFile(upload));
  const key = storedKey(upload, file.contentHash);
  await orUnavailable(`${STORAGE_UNREACHABLE} Your upload is kept.`, () => putObject(key, file.bytes, upload.contentType));
  const at = new Date().toISOString();
  const doc = newDocumentItem(documentFromUpload(upload, file, category, statusAfterConfirm(category), previous, at, key));
  const outcome = await documentsRepo.store(doc, previous);
  if (outcome === 'replaced-meanwhile') {
    await forget(key);
    throw new ConflictError(REPLACED_MEANWHILE);
  }
  const stored = outcome === 'exists' ? await confirmedBefore(workerId, uploadId) : doc;
  // A concurrent confirm of the same upload won with other bytes: this copy is nobody's.
  if (stored && stored.key !== key) await forget(key);
  if (upload.key !== stored?.key) await forget(upload.key);
  if (outcome === 'stored') {
    logger.info('Document confirmed', { documentId: doc.id, workerId, categoryId: doc.categoryId, version: doc.version });
    // Only the confirm whose write stored it tells the owner; a repeated confirm answers the same document quietly.
    if (doc.status === 'pending_review') await documentAwaitingReview({ id: doc.id, categoryName: doc.categoryName, workerName: caller.worker.fullName });
  }
  return reply(201, { document: toDocumentView(stored ?? doc) } satisfies { document: DocumentView });
});
