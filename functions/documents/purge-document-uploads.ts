import { DOCUMENT_UPLOADS_PREFIX, documentUploadsRepo, UPLOAD_CONFIRM_SECONDS } from './data/documents';
import { logger } from '../common/logger';
import { deleteObject } from '../common/storage';
import { timer } from '../common/timer';

/**
 * Daily (shared/routes.ts `recurring`): the files of uploads handed out more than an hour ago are
 * deleted, then their upload items. An upload never confirmed leaves a file a worker abandoned (or
 * none); a confirmed one leaves whatever its presigned POST wrote after the confirm, which could
 * still post for minutes: the document's own file is a copy under documents/ and stays. One Query
 * of the sparse index of open uploads; running it twice deletes nothing twice.
 */
export const handler = timer('purge-document-uploads', (input) => input ?? {}, async () => {
  const before = new Date(Date.now() - UPLOAD_CONFIRM_SECONDS * 1000).toISOString();
  const uploads = await documentUploadsRepo.openBefore(before);
  let purged = 0;
  for (const upload of uploads) {
    // Only ever an upload's file: an older upload item may name a key under documents/, which can
    // be a document's own file.
    if (upload.key.startsWith(DOCUMENT_UPLOADS_PREFIX)) {
      await deleteObject(upload.key);
      purged++;
    }
    await documentUploadsRepo.remove(upload.uploadId);
  }
  logger.info('Document upload files purged', { seen: uploads.length, purged });
});
