import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  TransactWriteCommand,
  UpdateCommand,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../clients';

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

/** dynalite (the local runtime and the tests) has no TransactWriteItems; learnt once per container. */
let emulate = false;

/**
 * All the writes or none, each conditional on the state it expects: one TransactWriteItems on
 * DynamoDB. Put the deciding condition first (an email claim, a status): where transactions are
 * emulated (dynalite, see `writeInOrder`), the actions run in order, so two racing callers meet at
 * the first one and only the winner goes on.
 */
export async function writeTogether(actions: WriteAction[]): Promise<void> {
  if (!emulate) {
    try {
      await dynamo.send(new TransactWriteCommand({ TransactItems: actions }));
      return;
    } catch (error) {
      const e = error as { name?: string; CancellationReasons?: { Code?: string }[] };
      if (e.name === 'TransactionCanceledException') {
        throw new WriteCancelled(actions.map((_, i) => e.CancellationReasons?.[i]?.Code ?? 'None'));
      }
      if (e.name !== 'UnknownOperationException') throw error;
      emulate = true;
    }
  }
  await writeInOrder(actions);
}

type Key = Record<string, unknown>;

function keyOf(action: WriteAction): Key {
  if (action.Put) return { pk: action.Put.Item!.pk, sk: action.Put.Item!.sk };
  if (action.Update) return action.Update.Key!;
  if (action.Delete) return action.Delete.Key!;
  throw new Error('writeTogether: ConditionCheck is not supported where transactions are emulated');
}

function isConditionFailure(error: unknown): boolean {
  return (error as Error)?.name === 'ConditionalCheckFailedException';
}

/**
 * The emulation for dynalite: each action as its own conditional write, in order; when one is
 * refused, the ones before it are put back as they were and the same WriteCancelled is thrown.
 * Local only: the undo is not itself conditional, which is fine for tests and a laptop.
 */
async function writeInOrder(actions: WriteAction[]): Promise<void> {
  const done: { key: Key; before: Record<string, unknown> | undefined }[] = [];
  for (const [i, action] of actions.entries()) {
    const key = keyOf(action);
    const before = (await dynamo.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }))).Item;
    try {
      if (action.Put) await dynamo.send(new PutCommand({ ...action.Put, TableName: tableName }));
      else if (action.Update) await dynamo.send(new UpdateCommand({ ...action.Update, TableName: tableName }));
      else if (action.Delete) await dynamo.send(new DeleteCommand({ ...action.Delete, TableName: tableName }));
    } catch (error) {
      for (const step of done.reverse()) {
        if (step.before) await dynamo.send(new PutCommand({ TableName: tableName, Item: step.before }));
        else await dynamo.send(new DeleteCommand({ TableName: tableName, Key: step.key }));
      }
      if (!isConditionFailure(error)) throw error;
      throw new WriteCancelled(actions.map((_, j) => (j === i ? 'ConditionalCheckFailed' : 'None')));
    }
    done.push({ key, before });
  }
}
