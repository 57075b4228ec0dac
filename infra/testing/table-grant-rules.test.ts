import { describe, expect, it } from 'vitest';
import { refusal, touches } from './table-grant-rules';

describe('table grant check: what a command touches and whether the function may', () => {
  it('reads the partition keys of single, batch and transaction commands, marshalled or not, with whether each writes', () => {
    // Act
    const get = touches('GetCommand', { Key: { pk: 'JOB#j_1', sk: 'JOB' } });
    const put = touches('PutItemCommand', { Item: { pk: { S: 'GEOCODE#x' }, sk: { S: 'GEOCODE' } } });
    const batch = touches('BatchWriteItemCommand', { RequestItems: { t: [{ PutRequest: { Item: { pk: 'A#1' } } }, { DeleteRequest: { Key: { pk: 'B#2' } } }] } });
    const transaction = touches('TransactWriteItemsCommand', { TransactItems: [{ Update: { Key: { pk: 'C#3' } } }, { ConditionCheck: { Key: { pk: 'D#4' } } }] });

    // Assess
    expect(get).toEqual([{ pk: 'JOB#j_1', write: false }]);
    expect(put).toEqual([{ pk: 'GEOCODE#x', write: true }]);
    expect(batch).toEqual([{ pk: 'A#1', write: true }, { pk: 'B#2', write: true }]);
    expect(transaction).toEqual([{ pk: 'C#3', write: true }, { pk: 'D#4', write: false }]);
  });

  it("reads a Query's partition key from its key condition, an index's own attribute for a Query of an index", () => {
    // Act
    const onIndex = touches('QueryCommand', {
      IndexName: 'gsi2',
      KeyConditionExpression: '#k = :v AND begins_with(#s, :p)',
      ExpressionAttributeNames: { '#k': 'gsi2pk', '#s': 'gsi2sk' },
      ExpressionAttributeValues: { ':v': { S: 'WORKERJOBS#w_1' }, ':p': { S: 'ACTIVE#' } },
    });
    const scan = touches('ScanCommand', {});

    // Assess
    expect(onIndex).toEqual([{ pk: 'WORKERJOBS#w_1', index: 'gsi2', write: false }]);
    expect(scan).toBe('scan');
  });

  it("refuses a key outside the function's generated patterns, and a write by a function whose access is read", () => {
    // Act
    const session = refusal('search-addresses', 'GetItemCommand', { pk: 'SESSION#h', write: false });
    const cache = refusal('search-addresses', 'PutItemCommand', { pk: 'GEOCODE#x', write: true });
    const readOnly = refusal('list-services', 'PutItemCommand', { pk: 'CATALOG', write: true });

    // Assess
    expect(session).toMatch(/search-addresses touches SESSION#h with GetItemCommand/);
    expect(cache).toBeUndefined();
    expect(readOnly).toMatch(/list-services \(table: read\) writes CATALOG/);
  });
});
