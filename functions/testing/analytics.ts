import { ScanCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import type { APIGatewayProxyEventV2, DynamoDBRecord } from 'aws-lambda';
import { toStreamRecord } from '../../infra/local/dynamo-stream';
import { countStats } from '../owner/count-stats';
import { dynamo, tableName } from '../common/clients';
import type { LatLng } from '../../shared/domain/geo';
import { invoiceForJob, invoicesRepo, type InvoiceItem } from '../payments/data/invoices';
import { jobsRepo, type JobItem } from '../jobs/data/jobs';
import type { WorkerItem } from '../workers/data/workers';
import { newId } from '../common/ids';
import { cardFeeRates } from '../common/env';
import { testJob } from './dispatch';

/**
 * Fixtures for the owner's figures. Every test file shares one table and the stats items are kept
 * per day, so a test that checks figures exactly lives on a day of its own: a random day long past,
 * which no other test (and no real clock) writes to. Every step below is the real repository's,
 * given that day's time.
 */
export function privateDay(): string {
  const start = Date.parse('1971-01-01T00:00:00Z');
  const days = Math.floor(Math.random() * 18_000);
  return new Date(start + days * 86_400_000).toISOString().slice(0, 10);
}

/** A clock on `day`: `at(minutes)` is that many minutes after 10:00 UTC. */
export const clockOn = (day: string) => (minutes: number) => new Date(Date.parse(`${day}T10:00:00Z`) + minutes * 60_000).toISOString();

export function withQuery(event: APIGatewayProxyEventV2, query: Record<string, string>): APIGatewayProxyEventV2 {
  return { ...event, queryStringParameters: query, rawQueryString: new URLSearchParams(query).toString() };
}

/** A job sent at `at(0)` of the fixture's day. */
export const sentJob = (category: string, place: LatLng | null, at: (m: number) => string, customerName?: string) =>
  testJob(category, place, { createdAt: at(0), ...(customerName ? { customerName } : {}) });

/** Offered to the worker at minute `minute` (for an hour), then accepted at `acceptMinute` with 45 minutes to arrive. */
export async function acceptedJob(job: JobItem, worker: WorkerItem, at: (m: number) => string, minute: number, acceptMinute: number): Promise<JobItem> {
  const fresh = (await jobsRepo.findById(job.id))!;
  if (!(await jobsRepo.addOffers(fresh, { [worker.id]: at(minute + 60) }, at(minute)))) throw new Error('acceptedJob: the offer was refused');
  await jobsRepo.accept({ jobId: job.id, workerId: worker.id, hourlyRate: worker.hourlyRate, now: at(acceptMinute), arriveBy: at(acceptMinute + 45), sentAt: job.createdAt });
  return (await jobsRepo.findById(job.id))!;
}

/** Arrived at `minute` (a location proof), worked, completed with 2 hours, approved by the customer. */
export async function verifiedJob(job: JobItem, worker: WorkerItem, at: (m: number) => string, minute: number): Promise<JobItem> {
  const evidence = { method: 'location' as const, lat: 0, lng: 0, accuracy: 5, distanceM: 10, at: at(minute) };
  await jobsRepo.arrive({ jobId: job.id, workerId: worker.id, from: 'accepted', evidence, now: at(minute), arriveBy: job.arriveBy });
  await jobsRepo.advance({ jobId: job.id, workerId: worker.id, from: 'arrived', to: 'in_progress', stamp: 'startedAt', now: at(minute + 1) });
  await jobsRepo.complete({ jobId: job.id, workerId: worker.id, now: at(minute + 121), totalHours: 2 });
  return jobsRepo.recordVerification({ jobId: job.id, customerId: job.customerId, approved: true, notes: null, now: at(minute + 130) });
}

/** The job's invoice (its 2 hours, no materials, 10% fee), paid at `minute`: the share sent or held. */
export async function paidInvoice(job: JobItem, worker: WorkerItem, at: (m: number) => string, minute: number, payout: 'transferred' | 'held'): Promise<InvoiceItem> {
  const invoice = invoiceForJob(job, worker, { id: newId(), laborHours: 2, materialsCents: 0, notes: null, feePercent: 10, cardFee: cardFeeRates(), now: at(minute - 5) });
  await invoicesRepo.create(invoice);
  await invoicesRepo.markPaid(invoice.id, {
    sessionId: `cs_${invoice.id}`,
    paymentIntentId: null,
    now: at(minute),
    payoutStatus: payout,
    payoutAccountId: payout === 'transferred' ? 'acct_test' : null,
  });
  return (await invoicesRepo.findById(invoice.id))!;
}

/**
 * What the table's stream does after every change (functions/owner/count-stats.ts), done now: every
 * tally waiting is handed to the consumer as the stream would hand it. A Scan, in tests only (the
 * handler tests run without the stream, and a tally's key is random). Tallies of other test files
 * are counted too, as the stream would count them; each exactly once, however many files settle at
 * the same moment.
 */
export async function settleCounts(): Promise<void> {
  const records: DynamoDBRecord[] = [];
  let start: Record<string, AttributeValue> | undefined;
  do {
    const page = await dynamo.send(
      new ScanCommand({
        TableName: tableName,
        FilterExpression: 'entity = :tally',
        ExpressionAttributeValues: { ':tally': { S: 'tally' } },
        ExclusiveStartKey: start,
        ConsistentRead: true,
      }),
    );
    for (const item of page.Items ?? []) {
      records.push(toStreamRecord({ tableName, key: { pk: item.pk!, sk: item.sk! }, before: undefined, after: item }) as DynamoDBRecord);
    }
    start = page.LastEvaluatedKey;
  } while (start);
  const { batchItemFailures } = await countStats({ Records: records });
  if (batchItemFailures.length) throw new Error('settleCounts: the tallies could not be counted');
}
