import { routeByName } from '../../shared/routes';
import type { AdminDocumentPage } from '../../shared/schemas/documents';
import { documentsRepo } from './data/documents';
import { workersRepo } from '../workers/data/workers';
import { toDocumentView } from './documents';
import { http } from '../common/http';

/**
 * Every worker's current documents, a page at a time (the owner's index, newest first), narrowed
 * by status, type, category or worker; with the names of the page's workers, read for that page
 * alone (one batch of at most a page's workers).
 */
export const handler = http(routeByName('list-all-documents'), async ({ query }): Promise<AdminDocumentPage> => {
  const { limit, cursor, ...filters } = query;
  const page = await documentsRepo.currentPage(filters, { limit, cursor });
  const workers = await workersRepo.findMany([...new Set(page.items.map((d) => d.workerId))]);
  return {
    items: page.items.map((d) => toDocumentView(d)),
    nextCursor: page.nextCursor,
    workerNames: Object.fromEntries(workers.map((w) => [w.id, w.fullName])),
  };
});
