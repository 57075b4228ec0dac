import { routeByName } from '../../shared/routes';
import { documentsRepo, type DocumentItem } from './data/documents';
import { categoryOf, documentNotFound, retainedKey } from './documents';
import { http } from '../common/http';
import { logger } from '../common/logger';
import { copyObject, deleteObject } from '../common/storage';

/**
 * Keeps a copy for the category's retention period (under retained/<n>y/, which a lifecycle rule
 * expires), marks the record deleted (once), then removes the file.
 */
async function deleteDocument(doc: DocumentItem): Promise<boolean> {
  const years = categoryOf(doc).retentionYears;
  const kept = years ? retainedKey(doc, years) : undefined;
  if (kept) await copyObject(doc.key, kept);
  if (!(await documentsRepo.markDeleted(doc, new Date().toISOString(), kept))) return false;
  await deleteObject(doc.key).catch((error: Error) => {
    // The record says deleted and no link is ever signed for it again; the file is removed on the next try.
    logger.warn('Could not remove a deleted document\'s file', { documentId: doc.id, errorName: error?.name });
  });
  return true;
}

/** The document and the earlier versions it replaced (parentDocumentId), not yet deleted. */
export function earlierVersions(doc: DocumentItem, all: readonly DocumentItem[]): DocumentItem[] {
  const byId = new Map(all.map((d) => [d.id, d]));
  const chain: DocumentItem[] = [];
  for (let parent = doc.parentDocumentId; parent; ) {
    const version = byId.get(parent);
    if (!version || chain.includes(version)) break;
    if (!version.deletedAt) chain.push(version);
    parent = version.parentDocumentId;
  }
  return chain;
}

/**
 * Deletes one of the worker's own documents with the earlier versions it replaced (their files
 * too, each kept for its retention period where the category has one); anyone else's document,
 * or one already deleted, is a 404.
 */
export const handler = http(routeByName('delete-document'), async ({ caller, params }) => {
  const doc = await documentsRepo.findOwn(caller.worker.id, params.id);
  if (!doc || !(await deleteDocument(doc))) throw documentNotFound();
  const earlier = earlierVersions(doc, doc.parentDocumentId ? await documentsRepo.allVersionsOf(doc.workerId) : []);
  for (const version of earlier) await deleteDocument(version);
  logger.info('Document deleted', { documentId: doc.id, workerId: doc.workerId, versions: 1 + earlier.length, retained: Boolean(categoryOf(doc).retentionYears) });
  return { success: true } as const;
});
