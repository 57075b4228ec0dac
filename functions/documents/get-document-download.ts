import { routeByName } from '../../shared/routes';
import { documentsRepo } from './data/documents';
import { documentNotFound, downloadLink, logAccess } from './documents';
import { http } from '../common/http';

/**
 * A presigned GET (5 minutes) of one of the worker's own documents, inline to view or as an
 * attachment to download, each written to the access log. Another worker's document is a 404 (and
 * the refused attempt is logged against it).
 */
export const handler = http(routeByName('get-document-download'), async ({ caller, params, query, event }) => {
  const { mode } = query;
  const who = { userId: caller.worker.id, role: 'worker' as const };
  const doc = await documentsRepo.findById(params.id);
  if (!doc || doc.deletedAt) throw documentNotFound();
  if (doc.workerId !== who.userId) {
    await logAccess(doc, who, mode, false, event);
    throw documentNotFound();
  }
  return downloadLink(doc, mode, who, event);
});
