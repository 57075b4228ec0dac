import { routeByName } from '../shared/routes';
import { todayUtc } from '../shared/schemas/document-rules';
import type { ComplianceResponse, ComplianceRow } from '../shared/schemas/documents';
import { documentsRepo, type DocumentItem } from './lib/data/documents';
import { workerAdmin } from './lib/data/worker-admin';
import { complianceOf } from './lib/documents';
import { http } from './lib/http';

/** Who needs attention first: paused offers, then the most required documents missing, then by name. */
const byUrgency = (a: ComplianceRow, b: ComplianceRow) =>
  Number(b.offersPaused) - Number(a.offersPaused) ||
  b.missingRequired.length - a.missingRequired.length ||
  a.fullName.localeCompare(b.fullName);

/**
 * Every worker who is not terminated, with the required documents they miss, how many are
 * expiring or waiting for review, and whether their offers are paused: two Queries (every worker,
 * every current document), whatever the number of workers.
 */
export const handler = http(routeByName('list-compliance'), async (): Promise<ComplianceResponse> => {
  const [workers, docs] = await Promise.all([workerAdmin.listAll(), documentsRepo.allCurrent()]);
  const byWorker = new Map<string, DocumentItem[]>();
  for (const doc of docs) byWorker.set(doc.workerId, [...(byWorker.get(doc.workerId) ?? []), doc]);
  const today = todayUtc();
  const rows = workers
    .filter((w) => w.status !== 'terminated')
    .map((worker): ComplianceRow => {
      const c = complianceOf(worker, byWorker.get(worker.id) ?? [], today);
      return {
        workerId: worker.id,
        fullName: worker.fullName,
        missingRequired: c.missingRequired.map((m) => m.name),
        expiringCount: c.expiring.length,
        pendingReviewCount: c.pendingReviewCount,
        offersPaused: c.offersPaused,
      };
    });
  return { workers: rows.sort(byUrgency) };
});
