import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { toStreamRecord } from '../../../infra/local/dynamo-stream';
import type { StoredMail } from '../../../infra/local/ses';
import { outboundMailEntity, type MailKind, type OutboundMailItem } from '../../../shared/entities';
import { dynamo, tableName } from '../clients';
import { env } from '../env';

/** Every message the local SES kept for `to` (its To list names it), oldest first. */
export async function mailsTo(to: string): Promise<StoredMail[]> {
  if (!env.SES_ENDPOINT) throw new Error('SES_ENDPOINT is not set: the tests send mail to the local SES');
  const response = await fetch(`${env.SES_ENDPOINT}/_local/messages`);
  if (!response.ok) throw new Error(`The local SES answered ${response.status}`);
  const { messages } = (await response.json()) as { messages: StoredMail[] };
  return messages.filter((m) => m.to.some((address) => address.toLowerCase() === to.toLowerCase()));
}

/** The stream record the put of an outbox mail makes (read back from the table), as the table's stream hands it to send-mail. */
export async function outboxRecord(kind: MailKind, subjectId: string): Promise<DynamoDBRecord> {
  const key = outboundMailEntity.key(kind, subjectId);
  const dynamoKey = { pk: { S: key.pk }, sk: { S: key.sk } };
  const raw = await dynamo.send(new GetItemCommand({ TableName: tableName, Key: dynamoKey }));
  if (!raw.Item) throw new Error(`No outbox mail ${key.pk}`);
  return toStreamRecord({ tableName, key: dynamoKey, before: undefined, after: raw.Item }) as DynamoDBRecord;
}

/**
 * The outbox's mails of one kind to an address (sent or not). A Scan, in tests only: a link's mail is
 * keyed by the link's id, which no test knows beforehand, and a test that asks about an address
 * nobody uses has no key to read by at all; the product never looks mail up by address.
 */
export async function outboxMailsTo(kind: MailKind, to: string): Promise<OutboundMailItem[]> {
  const found: OutboundMailItem[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await dynamo.send(
      new ScanCommand({
        TableName: tableName,
        FilterExpression: 'begins_with(pk, :kind) AND #to = :to',
        ExpressionAttributeNames: { '#to': 'to' },
        ExpressionAttributeValues: { ':kind': outboundMailEntity.key(kind, '').pk, ':to': to },
        ExclusiveStartKey: start,
        ConsistentRead: true,
      }),
    );
    found.push(...((page.Items ?? []) as OutboundMailItem[]));
    start = page.LastEvaluatedKey;
  } while (start);
  return found;
}
