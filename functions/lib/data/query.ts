import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../clients';

/**
 * Every item of one key range, page after page: `pk` (or an index's partition key) equal, sort key
 * beginning with `skPrefix`. A Query, never a Scan (DESIGN.md section 6).
 */
export async function queryAll<T>(input: {
  index?: 'gsi1' | 'gsi2' | 'gsi3';
  pk: string;
  skPrefix: string;
  newestFirst?: boolean;
  projection?: string;
}): Promise<T[]> {
  const pkName = input.index ? `${input.index}pk` : 'pk';
  const skName = input.index ? `${input.index}sk` : 'sk';
  const items: T[] = [];
  let start: QueryCommandInput['ExclusiveStartKey'];
  do {
    const out = await dynamo.send(
      new QueryCommand({
        TableName: tableName,
        IndexName: input.index,
        KeyConditionExpression: `${pkName} = :pk AND begins_with(${skName}, :sk)`,
        ExpressionAttributeValues: { ':pk': input.pk, ':sk': input.skPrefix },
        ScanIndexForward: !input.newestFirst,
        ProjectionExpression: input.projection,
        ExclusiveStartKey: start,
      }),
    );
    items.push(...((out.Items ?? []) as T[]));
    start = out.LastEvaluatedKey;
  } while (start);
  return items;
}
