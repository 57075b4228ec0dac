import type { WorkerSelf } from '../../../../shared/schemas/worker';
import { api } from '../../lib/api';
import { getSavedWorkerType, saveWorkerType } from './session';

/**
 * After a login: a worker type chosen on this device while signed out is saved to the account
 * (active workers only: the server refuses the others); otherwise the account's type is copied
 * here so both agree. Returns the worker as the server now has it.
 */
export async function syncWorkerType(worker: WorkerSelf, token: string): Promise<WorkerSelf> {
  const local = getSavedWorkerType();
  if (local && local !== worker.workerType && worker.status === 'active') {
    try {
      await api('POST /api/workers/worker-type', { body: { workerType: local }, token });
      return { ...worker, workerType: local };
    } catch {
      return worker;
    }
  }
  if (worker.workerType && worker.workerType !== local) saveWorkerType(worker.workerType);
  return worker;
}
