import { documentUploadsRepo, documentsRepo, UPLOAD_CONFIRM_SECONDS } from './lib/data/documents';
import { logger } from './lib/logger';
import { deleteObject } from './lib/storage';
import { timer } from './lib/timer';

/**
 * Daily (shared/routes.ts `recurring`): the files of uploads handed out more than an hour ago and
 * never confirmed are deleted, then their upload items, so a file a worker abandoned (or never
 * posted) does not stay in the bucket. An upload that did become a document keeps its file. One
 * Query of the sparse index of open uploads; running it twice deletes nothing twice.
 */
export const handler = timer('purge-document-uploads', (input) => input ?? {}, async () => {
  const before = new Date(Date.now() - UPLOAD_CONFIRM_SECONDS * 1000).toISOString();
  const abandoned = await documentUploadsRepo.openBefore(before);
  let purged = 0;
  for (const upload of abandoned) {
    const confirmed = await documentsRepo.findById(upload.uploadId);
    if (!confirmed) {
      await deleteObject(upload.key);
      purged++;
    }
    await documentUploadsRepo.remove(upload.uploadId);
  }
  logger.info('Abandoned document uploads purged', { seen: abandoned.length, purged });
});
