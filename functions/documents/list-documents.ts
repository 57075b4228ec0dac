import { routeByName } from '../../shared/routes';
import type { DocumentListResponse } from '../../shared/schemas/documents';
import { documentsRepo } from './data/documents';
import { applyFilters, currentOf, newestFirst, toDocumentView } from './documents';
import { http } from '../common/http';

/** The worker's own current documents (latest versions, not deleted), newest first, with the category, status and type filters. */
export const handler = http(routeByName('list-documents'), async ({ caller, query }): Promise<DocumentListResponse> => {
  // A worker's list is their own: a workerId filter has nothing to choose from.
  const { workerId: _ignored, ...filters } = query;
  const docs = applyFilters(currentOf(await documentsRepo.allVersionsOf(caller.worker.id)), filters);
  return { documents: docs.sort(newestFirst).map((d) => toDocumentView(d)) };
});
