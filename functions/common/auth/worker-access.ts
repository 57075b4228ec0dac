import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { workerEntity, type WorkerItem } from '../../../shared/entities';
import type { WorkerStatus } from '../../../shared/schemas/worker';
import { dynamo, tableName } from '../clients';
import { ForbiddenError } from '../errors';
import { declareTableUse } from '../../../shared/entities';

/**
 * A worker's profile as the handler stack reads it: a session proves who the worker is, the status
 * in the profile what they may reach. It lives beside the sessions rather than with the workers'
 * repository because the stack admits callers before any area's code runs.
 */
export async function workerProfile(id: string): Promise<WorkerItem | undefined> {
  const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: workerEntity.key(id) }));
  return out.Item as WorkerItem | undefined;
}

/** The same refusal the handler stack gives a worker who is not active (pending, suspended or terminated). */
export function notActiveError(status: WorkerStatus): ForbiddenError {
  return new ForbiddenError(notActiveMessage(status));
}

export function notActiveMessage(status: WorkerStatus): string {
  if (status === 'terminated') return 'This account has been terminated.';
  if (status === 'suspended') return 'This account is suspended until the owner reviews it. Your dashboard shows why and lets you appeal your strikes.';
  if (status === 'rejected') return 'Your application was not approved.';
  return 'Your application is still under review.';
}

/** A worker account of an applicant the owner has not approved (yet, or at all): their status screen only. */
export function isApplicant(status: WorkerStatus): boolean {
  return status === 'pending_review' || status === 'rejected';
}

/** The items this module reads and writes: the stack's table grants are generated from these (infra/table-grants.ts). */
export const tableUse = declareTableUse({ reads: [workerEntity] });
