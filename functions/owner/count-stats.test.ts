import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { toStreamRecord } from '../../infra/local/dynamo-stream';
import { counter, tallyEntity, type TallyItem } from '../../shared/entities';
import { countStats, tallyOf } from './count-stats';
import { dynamo, tableName } from '../common/clients';
import { jobsRepo } from '../jobs/data/jobs';
import { stats, TALLIES_PER_WRITE } from './data/stats';
import { newId } from '../common/ids';
import { clockOn, privateDay, sentJob, settleCounts } from '../testing/analytics';
import { testCategory } from '../testing/dispatch';
import { marshall } from '@aws-sdk/util-dynamodb';

const sample = JSON.parse(readFileSync(new URL('../../events/count-stats.json', import.meta.url), 'utf8')) as DynamoDBStreamEvent;

/** A tally stored as a change would store it, and the record its put makes on the stream. */
async function storedTally(counts: TallyItem['counts']): Promise<DynamoDBRecord> {
  const item: TallyItem = { ...tallyEntity.key(newId()), entity: 'tally', counts };
  await dynamo.send(new PutCommand({ TableName: tableName, Item: item }));
  const key = { pk: { S: item.pk }, sk: { S: item.sk } };
  return toStreamRecord({ tableName, key, before: undefined, after: marshall(item) }) as DynamoDBRecord;
}

async function dayCount(day: string, name: string): Promise<number> {
  const [item] = await stats.days(day, day);
  return typeof item?.[name] === 'number' ? (item[name] as number) : 0;
}

const tallyExists = async (record: DynamoDBRecord) =>
  Boolean((await dynamo.send(new GetCommand({ TableName: tableName, Key: { pk: record.dynamodb!.Keys!.pk!.S, sk: 'TALLY' }, ConsistentRead: true }))).Item);

describe('count-stats (the table stream)', () => {
  it('reads the tally of its sample event, and ignores a record of anything else', () => {
    // Act
    const tally = tallyOf(sample.Records[0]!);
    const other = tallyOf({ ...sample.Records[0]!, dynamodb: { ...sample.Records[0]!.dynamodb, NewImage: { entity: { S: 'job' } } } });

    // Assess
    expect(tally?.counts.ALL).toEqual({ [counter.jobsTotal]: 1 });
    expect(other).toBeUndefined();
  });

  it('adds every tally of a batch into its day, and deletes the tallies it counted', async () => {
    // Prepare
    const day = privateDay();
    const records = await Promise.all([1, 2, 3].map((n) => storedTally({ [`DAY#${day}`]: { [counter.payments]: 1, [counter.grossCents]: n * 100 } })));

    // Act
    const result = await countStats({ Records: records });

    // Assess
    expect(result.batchItemFailures).toEqual([]);
    expect(await dayCount(day, counter.payments)).toBe(3);
    expect(await dayCount(day, counter.grossCents)).toBe(600);
    expect(await Promise.all(records.map(tallyExists))).toEqual([false, false, false]);
  });

  it('counts a record delivered twice once, in one batch, in two batches and in two consumers at once', async () => {
    // Prepare
    const day = privateDay();
    const [a, b] = await Promise.all([1, 2].map(() => storedTally({ [`DAY#${day}`]: { [counter.payments]: 1 } })));

    // Act
    await countStats({ Records: [a!, a!] });
    await countStats({ Records: [a!, b!] });
    await Promise.all([countStats({ Records: [b!] }), countStats({ Records: [a!, b!] })]);

    // Assess
    expect(await dayCount(day, counter.payments)).toBe(2);
  });

  it('counts a batch larger than one write allows, every tally once', async () => {
    // Prepare: tallies over three days and the overall item, more than one transaction holds
    const days = [privateDay(), privateDay(), privateDay()];
    const records = await Promise.all(
      Array.from({ length: TALLIES_PER_WRITE * 2 + 5 }, (_, i) => storedTally({ [`DAY#${days[i % 3]}`]: { [counter.funnel('sent')]: 1 } })),
    );

    // Act
    const result = await countStats({ Records: records });

    // Assess
    expect(result.batchItemFailures).toEqual([]);
    const counts = await Promise.all(days.map((d) => dayCount(d, counter.funnel('sent'))));
    expect(counts.reduce((n, c) => n + c, 0)).toBe(TALLIES_PER_WRITE * 2 + 5);
  });

  it('a counted change writes a tally of its own, never a stats item: the figures move once the stream counts', async () => {
    // Prepare
    const day = privateDay();
    const at = clockOn(day);

    // Act: what a job's creation writes beside the job, and the job sent and found no pro for real
    const writes = stats.jobSent({ createdAt: at(0), category: 'plumbing', latitude: null, longitude: null });
    const job = await sentJob(testCategory(), null, at);
    await jobsRepo.markNoWorker(job, at(5));
    await settleCounts();

    // Assess: only puts of new tally keys (never the shared STATS items), then counted once
    expect(writes.map((w) => Object.keys(w))).toEqual([['Put']]);
    expect(String(writes[0]!.Put!.Item!.pk)).toMatch(/^TALLY#/);
    expect(await dayCount(day, counter.funnel('sent'))).toBe(1);
    expect(await dayCount(day, counter.noProIn(job.category, 'none'))).toBe(1);
  });
});
