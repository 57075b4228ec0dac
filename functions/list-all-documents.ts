import { routeByName } from '../shared/routes';
import type { DocumentListResponse } from '../shared/schemas/documents';
import { documentsRepo } from './lib/data/documents';
import { applyFilters, newestFirst, toDocumentView } from './lib/documents';
import { http } from './lib/http';

/** Every worker's current documents (the sparse owner's index: one Query), newest first, by status and worker. */
export const handler = http(routeByName('list-all-documents'), async ({ query }): Promise<DocumentListResponse> => {
  const docs = applyFilters(await documentsRepo.allCurrent(), query);
  return { documents: docs.sort(newestFirst).map((d) => toDocumentView(d)) };
});
