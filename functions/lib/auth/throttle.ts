import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../../../shared/table';
import { dynamo, tableName } from '../clients';
import { TooManyRequestsError } from '../errors';

/**
 * Failed logins are counted per name and network address. After FREE_ATTEMPTS failures the next
 * attempt waits 1 minute, then 2, 4 … up to 15: guessing becomes slow, and because the key
 * includes the address, someone failing from elsewhere cannot lock the owner out. A success clears
 * the count; the row expires by itself a day after the last failure.
 */
const FREE_ATTEMPTS = 5;
const MAX_WAIT_SECONDS = 15 * 60;

interface ThrottleItem {
  failures: number;
  lockedUntil?: number;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

export function waitAfter(failures: number): number {
  if (failures < FREE_ATTEMPTS) return 0;
  return Math.min(60 * 2 ** (failures - FREE_ATTEMPTS), MAX_WAIT_SECONDS);
}

export const loginThrottle = {
  async check(scope: string, key: string): Promise<void> {
    const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.throttle(scope, key) }));
    const item = out.Item as ThrottleItem | undefined;
    const wait = (item?.lockedUntil ?? 0) - nowSeconds();
    if (wait > 0) {
      const minutes = Math.ceil(wait / 60);
      throw new TooManyRequestsError(
        `Too many failed attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
        wait,
      );
    }
  },

  async recordFailure(scope: string, key: string): Promise<void> {
    const out = await dynamo.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.throttle(scope, key),
        UpdateExpression: 'ADD failures :one SET expiresAt = :expires',
        ExpressionAttributeValues: { ':one': 1, ':expires': nowSeconds() + 24 * 60 * 60 },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    const wait = waitAfter(Number(out.Attributes?.failures ?? 0));
    if (wait > 0) {
      await dynamo.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.throttle(scope, key),
          UpdateExpression: 'SET lockedUntil = :until',
          ExpressionAttributeValues: { ':until': nowSeconds() + wait },
        }),
      );
    }
  },

  async clear(scope: string, key: string): Promise<void> {
    await dynamo.send(new DeleteCommand({ TableName: tableName, Key: keys.throttle(scope, key) }));
  },
};
