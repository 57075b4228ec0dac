import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../clients';
import { batchWrite } from '../data/batch';

type Key = { pk: string; sk: string };

/**
 * Deletes the rows a person has under one gsi1 partition (their sessions, their device cookies),
 * newest first, sparing the `spare` newest and any named in `keep`. It reads page after page: one
 * Query page stops at 1 MB, a few thousand rows, and every row past it would otherwise survive.
 * Each page's rows go at once (BatchWrite, retrying what DynamoDB leaves unprocessed), so a person
 * with very many rows never sits in memory whole.
 */
export async function deleteRowsOf(gsi1pk: string, { keep = [], spare = 0 }: { keep?: readonly string[]; spare?: number } = {}): Promise<void> {
  let spared = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const out = await dynamo.send(
      new QueryCommand({
        TableName: tableName,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': gsi1pk },
        ProjectionExpression: 'pk, sk',
        ScanIndexForward: false,
        ExclusiveStartKey: start,
      }),
    );
    const doomed: Key[] = [];
    for (const row of (out.Items ?? []) as Key[]) {
      if (keep.includes(row.pk)) continue;
      if (spared < spare) {
        spared += 1;
        continue;
      }
      doomed.push({ pk: row.pk, sk: row.sk });
    }
    await batchWrite([], doomed);
    start = out.LastEvaluatedKey;
  } while (start);
}
