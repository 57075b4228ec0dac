import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../clients';
import type { Update } from './expressions';

/** A conditional write whose condition did not hold: another write got there first (or the item is not as expected). */
export function lostRace(error: unknown): boolean {
  return error instanceof ConditionalCheckFailedException || (error as Error | undefined)?.name === 'ConditionalCheckFailedException';
}

/** Applies an update; a refused condition throws (ConditionalCheckFailedException). Answers the item after it. */
export async function applyUpdate<T>(update: Update<T>): Promise<T> {
  const out = await dynamo.send(new UpdateCommand({ ...update, ReturnValues: 'ALL_NEW' }));
  return out.Attributes as T;
}

/**
 * Applies a conditional update: the item after it (or before it, `returns: 'ALL_OLD'`), or
 * undefined when its condition did not hold. Any other failure throws.
 */
export async function tryUpdate<T>(update: Update<T>, returns: 'ALL_NEW' | 'ALL_OLD' = 'ALL_NEW'): Promise<T | undefined> {
  try {
    const out = await dynamo.send(new UpdateCommand({ ...update, ReturnValues: returns }));
    return out.Attributes as T;
  } catch (error) {
    if (lostRace(error)) return undefined;
    throw error;
  }
}
