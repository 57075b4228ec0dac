import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../clients';

export type WriteAction = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * A write together that did not happen: `reasons[i]` says why action i refused
 * ('ConditionalCheckFailed', 'TransactionConflict', or 'None' for actions that were fine).
 */
export class WriteCancelled extends Error {
  constructor(readonly reasons: string[]) {
    super(`Write cancelled: ${reasons.join(', ')}`);
    this.name = 'WriteCancelled';
  }
  /** Whether action i's condition (or a concurrent transaction on its item) stopped the write. */
  refusedAt(i: number): boolean {
    return this.reasons[i] === 'ConditionalCheckFailed' || this.reasons[i] === 'TransactionConflict';
  }
}

/**
 * All the writes or none, each conditional on the state it expects: one TransactWriteItems.
 * A refusal comes back as WriteCancelled, saying which action's condition stopped it.
 */
export async function writeTogether(actions: WriteAction[]): Promise<void> {
  try {
    await dynamo.send(new TransactWriteCommand({ TransactItems: actions }));
  } catch (error) {
    const e = error as { name?: string; CancellationReasons?: { Code?: string }[] };
    if (e.name !== 'TransactionCanceledException') throw error;
    // Throttled actions cancel the whole transaction: nothing was written and nothing refused it,
    // so the caller hears "try again" (functions/common/transient.ts), not a refusal.
    if (e.CancellationReasons?.some((r) => r.Code === 'ThrottlingError' || r.Code === 'ProvisionedThroughputExceeded')) {
      throw Object.assign(error as Error, { $retryable: { throttling: true } });
    }
    throw new WriteCancelled(actions.map((_, i) => e.CancellationReasons?.[i]?.Code ?? 'None'));
  }
}
