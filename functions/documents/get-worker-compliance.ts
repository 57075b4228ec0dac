import { routeByName } from '../../shared/routes';
import type { WorkerCompliance } from '../../shared/schemas/documents';
import { documentsRepo } from './data/documents';
import { workersRepo } from '../workers/data/workers';
import { complianceOf } from './documents';
import { NotFoundError } from '../common/errors';
import { http } from '../common/http';

/** One worker's documents as the owner reviews them: all current ones, required ones missing, those expiring, the pause. */
export const handler = http(routeByName('get-worker-compliance'), async ({ params }): Promise<WorkerCompliance> => {
  const { id } = params;
  const worker = await workersRepo.findById(id);
  if (!worker) throw new NotFoundError('No such worker.');
  const { documents, missingRequired, expiring, offersPaused } = complianceOf(worker, await documentsRepo.allVersionsOf(id));
  return { worker: { id: worker.id, fullName: worker.fullName }, documents, missingRequired, expiring, offersPaused };
});
