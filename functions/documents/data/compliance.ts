import { workerEntity, type WorkerItem } from '../../../shared/entities';
import type { Page, PageQuery } from '../../../shared/schemas/page';
import { readMergedPage } from '../../common/data/page';
import { declareTableUse } from '../../../shared/entities';

/**
 * The owner's compliance table reads workers a page at a time: the workers' index, newest first,
 * without the terminated (they hold no documents the owner must chase). Each row's documents are
 * then that worker's own partition, so a page costs one Query per worker on it, never a read of
 * every document.
 */
export const complianceRepo = {
  async workersPage(page: PageQuery): Promise<Page<WorkerItem>> {
    return readMergedPage(workerEntity.indexes.all.ranges(), { newestFirst: true, filter: (c) => c.ne('status', 'terminated') }, page);
  },
};

/** The items this module reads and writes: the stack's table grants are generated from these (infra/table-grants.ts). */
export const tableUse = declareTableUse({ reads: [workerEntity] });
