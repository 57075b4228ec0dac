import { dynamo } from '../common/clients';

/**
 * What the functions' own DynamoDB client wrote while a test watched: every write request, and those
 * a condition refused. A refused conditional write is billed as a write all the same, so tests about
 * cost count both.
 */
export interface TableWrites {
  /** Write requests sent (PutItem, UpdateItem, DeleteItem, BatchWriteItem, TransactWriteItems), refused ones included. */
  readonly sent: number;
  /** Of those, the ones a condition refused (ConditionalCheckFailed, or a transaction cancelled by one). */
  readonly refused: number;
  /** The write commands in the order they were sent, e.g. `UpdateItemCommand`. */
  readonly commands: readonly string[];
  /** Stops watching; the counts stay as they are. */
  stop(): void;
}

const writeCommands = new Set(['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'BatchWriteItemCommand', 'TransactWriteItemsCommand']);

function refusedByCondition(error: unknown): boolean {
  const e = error as { name?: string; CancellationReasons?: { Code?: string }[] } | undefined;
  return e?.name === 'ConditionalCheckFailedException' || (e?.name === 'TransactionCanceledException' && (e.CancellationReasons ?? []).some((r) => r.Code === 'ConditionalCheckFailed'));
}

let watchers = 0;

/** Starts counting the table writes this process sends through `dynamo`; stop() ends it. */
export function watchTableWrites(): TableWrites {
  const name = `tableWriteWatcher${++watchers}`;
  const commands: string[] = [];
  let refused = 0;
  dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      const command = context.commandName ?? '';
      if (!writeCommands.has(command)) return next(args);
      commands.push(command);
      try {
        return await next(args);
      } catch (error) {
        if (refusedByCondition(error)) refused++;
        throw error;
      }
    },
    { step: 'initialize', name },
  );
  return {
    get sent() {
      return commands.length;
    },
    get refused() {
      return refused;
    },
    get commands() {
      return [...commands];
    },
    stop() {
      dynamo.middlewareStack.remove(name);
    },
  };
}
