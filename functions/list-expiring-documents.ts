import { expiresWithin } from '../shared/domain/documents';
import { routeByName } from '../shared/routes';
import { MAX_EXPIRING_DAYS, todayUtc } from '../shared/schemas/document-rules';
import type { DocumentListResponse } from '../shared/schemas/documents';
import { documentsRepo } from './lib/data/documents';
import { currentOf, toDocumentView } from './lib/documents';
import { ValidationError } from './lib/errors';
import { http } from './lib/http';

const DAYS_MESSAGE = `days must be a whole number from 1 to ${MAX_EXPIRING_DAYS}`;

export function parseDays(raw: string | undefined): number {
  const days = /^\d{1,3}$/.test(raw ?? '') ? Number(raw) : Number.NaN;
  if (!(days >= 1 && days <= MAX_EXPIRING_DAYS)) throw new ValidationError(DAYS_MESSAGE, { days: DAYS_MESSAGE });
  return days;
}

/** The worker's current documents expiring within {days} days (not yet expired), soonest first. */
export const handler = http(routeByName('list-expiring-documents'), async ({ caller, params }): Promise<DocumentListResponse> => {
  const days = parseDays(params.days);
  const today = todayUtc();
  const docs = currentOf(await documentsRepo.allVersionsOf(caller.worker.id))
    .filter((d) => d.status !== 'expired' && d.status !== 'rejected' && expiresWithin(d.expirationDate, today, days))
    .sort((a, b) => a.expirationDate!.localeCompare(b.expirationDate!));
  return { documents: docs.map((d) => toDocumentView(d, today)) };
});
