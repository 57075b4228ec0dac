import { ScanCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { localDynamoClient } from './dynamo';
import { toStreamRecord, type StreamRecord } from './dynamo-stream';

/**
 * The stream records a run had not delivered when it stopped. The local stream lives in memory, so
 * a process killed mid-burst loses what it was still to hand over, where DynamoDB Streams would keep
 * it for a day. Items that wait in the table until their consumer removes them (a tally is deleted
 * by the write that counts it) are found again at start and handed over as the INSERT records they
 * made: a Scan, at start only, never on a request path.
 */
export async function leftoverRecords(endpoint: string, tableName: string, entity: string): Promise<StreamRecord[]> {
  const client = localDynamoClient(endpoint);
  const records: StreamRecord[] = [];
  try {
    let start: Record<string, AttributeValue> | undefined;
    do {
      const page = await client.send(
        new ScanCommand({
          TableName: tableName,
          FilterExpression: 'entity = :entity',
          ExpressionAttributeValues: { ':entity': { S: entity } },
          ExclusiveStartKey: start,
        }),
      );
      for (const item of page.Items ?? []) {
        const record = toStreamRecord({ tableName, key: { pk: item.pk, sk: item.sk }, before: undefined, after: item });
        if (record) records.push(record);
      }
      start = page.LastEvaluatedKey;
    } while (start);
  } finally {
    client.destroy();
  }
  return records;
}
