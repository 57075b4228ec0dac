import type { WorkerItem } from './data/workers';
import { ForbiddenError } from '../common/errors';

/**
 * The worker is always the token's: a worker acts only on their own jobs. A worker id the client
 * sends (in a path or a body; the job calls accept one) must be that worker's, or the call is refused.
 */
export function requireOwnWorkerId(worker: WorkerItem, claimed: string | undefined): void {
  if (claimed !== undefined && claimed !== worker.id) {
    throw new ForbiddenError('You can only act on your own jobs.');
  }
}
