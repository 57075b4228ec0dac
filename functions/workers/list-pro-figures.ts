import { workerEntity } from '../../shared/entities';
import { routeByName } from '../../shared/routes';
import type { ProFigures } from '../../shared/schemas/admin';
import type { Page } from '../../shared/schemas/page';
import { averageRating } from '../../shared/schemas/review-rules';
import { readMergedPage } from '../common/data/page';
import type { WorkerItem } from './data/workers';
import { http } from '../common/http';
import { declareTableUse } from '../../shared/entities';

/**
 * Each pro's rating, earnings and strikes, a page at a time (oldest profile first): every figure is
 * a running total on the profile itself, moved in the write of the review, the payment or the strike.
 */
export const handler = http(routeByName('list-pro-figures'), async ({ query }): Promise<Page<ProFigures>> => {
  const page = await readMergedPage<WorkerItem>(workerEntity.indexes.all.ranges(), {}, query);
  return {
    items: page.items.map((worker) => ({
      id: worker.id,
      fullName: worker.fullName,
      status: worker.status,
      averageRating: averageRating(worker.ratingSum ?? 0, worker.ratingCount ?? 0),
      reviewCount: worker.ratingCount ?? 0,
      earnedCents: worker.earnedCents ?? 0,
      paidJobs: worker.paidJobs ?? 0,
      strikes: worker.strikes,
    })),
    nextCursor: page.nextCursor,
  };
});

/** The items this module reads and writes: the stack's table grants are generated from these (infra/table-grants.ts). */
export const tableUse = declareTableUse({ reads: [workerEntity] });
