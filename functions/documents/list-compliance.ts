import { routeByName } from '../../shared/routes';
import { todayUtc } from '../../shared/schemas/document-rules';
import type { ComplianceResponse, ComplianceRow } from '../../shared/schemas/documents';
import { complianceRepo } from './data/compliance';
import { documentsRepo } from './data/documents';
import { complianceOf } from './documents';
import { http } from '../common/http';

/**
 * Every worker who is not terminated, a page at a time (newest first), with the required
 * documents they miss, how many are expiring or waiting for review, and whether their offers are
 * paused. The counts come from each listed worker's own documents (one Query per row, at most a
 * page of them), never from reading every document.
 */
export const handler = http(routeByName('list-compliance'), async ({ query }): Promise<ComplianceResponse> => {
  const page = await complianceRepo.workersPage(query);
  const today = todayUtc();
  const items = await Promise.all(
    page.items.map(async (worker): Promise<ComplianceRow> => {
      const c = complianceOf(worker, await documentsRepo.allVersionsOf(worker.id), today);
      return {
        workerId: worker.id,
        fullName: worker.fullName,
        missingRequired: c.missingRequired.map((m) => m.name),
        expiringCount: c.expiring.length,
        pendingReviewCount: c.pendingReviewCount,
        offersPaused: c.offersPaused,
      };
    }),
  );
  return { items, nextCursor: page.nextCursor };
});
