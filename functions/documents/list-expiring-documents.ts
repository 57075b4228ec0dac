import { expiresWithin } from '../../shared/domain/documents';
import { routeByName } from '../../shared/routes';
import { todayUtc } from '../../shared/schemas/document-rules';
import type { DocumentListResponse } from '../../shared/schemas/documents';
import { documentsRepo } from './data/documents';
import { currentOf, toDocumentView } from './documents';
import { http } from '../common/http';

/** The worker's current documents expiring within {days} days (not yet expired), soonest first. */
export const handler = http(routeByName('list-expiring-documents'), async ({ caller, params }): Promise<DocumentListResponse> => {
  const { days } = params;
  const today = todayUtc();
  const docs = currentOf(await documentsRepo.allVersionsOf(caller.worker.id))
    .filter((d) => d.status !== 'expired' && d.status !== 'rejected' && expiresWithin(d.expirationDate, today, days))
    .sort((a, b) => a.expirationDate!.localeCompare(b.expirationDate!));
  return { documents: docs.map((d) => toDocumentView(d, today)) };
});
