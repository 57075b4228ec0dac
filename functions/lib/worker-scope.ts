import type { WorkerItem } from './data/workers';
import { ForbiddenError } from './errors';

/**
 * DESIGN.md section 7: the worker is always the token's. A worker id the client sends (in a path
 * or a body, as the spec's client does) must be that worker's, or the call is refused.
 */
export function requireOwnWorkerId(worker: WorkerItem, claimed: string | undefined): void {
  if (claimed !== undefined && claimed !== worker.id) {
    throw new ForbiddenError('You can only act on your own jobs.');
  }
}
