import { routeByName } from '../../shared/routes';
import { documentsRepo } from './data/documents';
import { documentNotFound, downloadLink } from './documents';
import { http } from '../common/http';

/** The owner opens any worker's document (not a deleted one): a presigned GET of 5 minutes, access-logged with the owner. */
export const handler = http(routeByName('get-admin-document-download'), async ({ caller, params, query, event }) => {
  const { mode } = query;
  const doc = await documentsRepo.findById(params.id);
  if (!doc || doc.deletedAt) throw documentNotFound();
  return downloadLink(doc, mode, { userId: caller.id, role: 'admin' }, event);
});
