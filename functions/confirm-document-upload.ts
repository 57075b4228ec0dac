import { statusAfterConfirm } from '../shared/domain/documents';
import { routeByName } from '../shared/routes';
import type { DocumentView } from '../shared/schemas/documents';
import { documentUploadsRepo, documentsRepo, newDocumentItem, type DocumentItem } from './lib/data/documents';
import { categoryOf, documentFromUpload, documentNotFound, STORAGE_UNREACHABLE, toDocumentView, verifyUploadedFile } from './lib/documents';
import { orUnavailable } from './lib/transient';
import { ConflictError, NotFoundError } from './lib/errors';
import { reply, http } from './lib/http';
import { logger } from './lib/logger';

const NO_SUCH_UPLOAD = 'No such upload, or it is more than an hour old. Upload the file again.';

/** The document this upload already became (a repeated or concurrent confirm), if it is the worker's. */
async function confirmedBefore(workerId: string, uploadId: string): Promise<DocumentItem | undefined> {
  const doc = await documentsRepo.findById(uploadId);
  if (doc && doc.workerId !== workerId) throw documentNotFound();
  return doc;
}

/**
 * The upload arrived: its size and first bytes are checked against what was declared (a refused
 * file is deleted), its SHA-256 taken, and the document stored as version 1 or as the next version
 * of the one it replaces (in one transaction). Confirming again answers the same document.
 */
export const handler = http(routeByName('confirm-document-upload'), async ({ caller, params }) => {
  const workerId = caller.worker.id;
  const uploadId = params.uploadId ?? '';
  const existing = await confirmedBefore(workerId, uploadId);
  if (existing) return reply(201, { document: toDocumentView(existing) } satisfies { document: DocumentView });

  const upload = await documentUploadsRepo.findOpen(workerId, uploadId);
  if (!upload) throw new NotFoundError(NO_SUCH_UPLOAD);
  const category = categoryOf(upload);
  const previous = upload.replacesDocumentId ? await documentsRepo.findOwn(workerId, upload.replacesDocumentId) : undefined;
  if (upload.replacesDocumentId && !previous?.isLatestVersion) {
    throw new ConflictError('The document this replaces was deleted or replaced meanwhile. Upload it again as a new document.');
  }
  // Nothing is stored for a file that could not be checked: the upload stays for a retried confirm.
  const file = await orUnavailable(`${STORAGE_UNREACHABLE} Your upload is kept.`, () => verifyUploadedFile(upload));
  const at = new Date().toISOString();
  const doc = newDocumentItem(documentFromUpload(upload, file, category, statusAfterConfirm(category), previous, at));
  const outcome = await documentsRepo.store(doc, previous);
  if (outcome === 'replaced-meanwhile') {
    throw new ConflictError('The document this replaces was deleted or replaced meanwhile. Upload it again as a new document.');
  }
  // Confirmed: nothing left for the daily purge (best effort; the purge checks for the document anyway).
  await documentUploadsRepo.remove(uploadId).catch(() => undefined);
  const stored = outcome === 'exists' ? await confirmedBefore(workerId, uploadId) : doc;
  if (outcome === 'stored') logger.info('Document confirmed', { documentId: doc.id, workerId, categoryId: doc.categoryId, version: doc.version });
  return reply(201, { document: toDocumentView(stored ?? doc) } satisfies { document: DocumentView });
});
