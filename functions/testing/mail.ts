import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { PutCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { toStreamRecord } from '../../infra/local/dynamo-stream';
import type { StoredMail } from '../../infra/local/ses';
import { mailQueueShard, outboundMailEntity, type MailKind, type OutboundMailItem } from '../../shared/entities';
import { updateOf } from '../common/data/expressions';
import { dynamo, tableName } from '../common/clients';
import { outboxItem } from '../mail/data/mail';
import { env } from '../common/env';
import type { MailMessage } from '../mail/message';

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

/** A mail put in the outbox `secondsAgo` seconds ago (as its write at that time would have put it), which no stream delivered. */
export async function queuedAgo(message: MailMessage, secondsAgo: number): Promise<OutboundMailItem> {
  const item = outboxItem(message, new Date(Date.now() - secondsAgo * 1000));
  await dynamo.send(new PutCommand({ TableName: tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }));
  return item;
}

/**
 * Moves a claimed mail's lease to end at `leaseUntil` (epoch seconds), its sweeper's turn with it,
 * as if the claim had been taken that much earlier or later: a sender that died long ago, or one
 * about to finish.
 */
export async function setLease(kind: MailKind, subjectId: string, leaseUntil: number): Promise<void> {
  const key = outboundMailEntity.key(kind, subjectId);
  await dynamo.send(
    new UpdateCommand(
      updateOf(outboundMailEntity, key, {
        set: { leaseUntil, ...outboundMailEntity.indexes.unsent.key(mailQueueShard(key.pk), new Date(leaseUntil * 1000).toISOString()) },
        if: (c) => c.eq('state', 'sending'),
      }),
    ),
  );
}
