import { describe, expect, it } from 'vitest';
import { jobEntity, statsEntity, workerEntity, type JobItem } from '../../../shared/entities';
import { conditionOf, increment, incrementFrom, listAppend, putOf, updateOf, valueOf } from './expressions';

describe('updateOf', () => {
  it('names every attribute and value by placeholder, in SET, REMOVE, ADD and DELETE order', () => {
    // Prepare
    const key = workerEntity.key('w1');

    // Act
    const update = updateOf(workerEntity, key, {
      set: { updatedAt: 'now', strikes: 2 },
      remove: ['activeJobId'],
      add: { ratingSum: 5 },
      delete: { offersPausedFor: new Set(['plumbing']) },
    });

    // Assess
    expect(update).toMatchObject({
      Key: key,
      UpdateExpression: 'SET #updatedAt = :v0, #strikes = :v1 REMOVE #activeJobId ADD #ratingSum :v2 DELETE #offersPausedFor :v3',
      ExpressionAttributeNames: { '#updatedAt': 'updatedAt', '#strikes': 'strikes', '#activeJobId': 'activeJobId', '#ratingSum': 'ratingSum', '#offersPausedFor': 'offersPausedFor' },
      ExpressionAttributeValues: { ':v0': 'now', ':v1': 2, ':v2': 5, ':v3': new Set(['plumbing']) },
    });
    expect(update).not.toHaveProperty('ConditionExpression');
  });

  it('numbers the placeholder of a name a placeholder cannot spell, once per name', () => {
    // Act: stats counters are named like "funnel:paid"
    const update = updateOf(statsEntity, statsEntity.key('ALL'), { set: { entity: 'stats' }, add: { 'funnel:paid': 1, 'nopro:plumbing:9q8y': 2 } });

    // Assess
    expect(update.UpdateExpression).toBe('SET #entity = :v0 ADD #a0 :v1, #a1 :v2');
    expect(update.ExpressionAttributeNames).toEqual({ '#entity': 'entity', '#a0': 'funnel:paid', '#a1': 'nopro:plumbing:9q8y' });
  });

  it('writes computed values from the attribute itself', () => {
    // Act
    const update = updateOf(jobEntity, jobEntity.key('j1'), {
      set: { version: increment(), reworkCount: incrementFrom(0), tried: listAppend(['w1']), priorHours: valueOf('totalHours') },
    });

    // Assess
    expect(update.UpdateExpression).toBe(
      'SET #version = #version + :v0, #reworkCount = if_not_exists(#reworkCount, :v1) + :v2, #tried = list_append(#tried, :v3), #priorHours = #totalHours',
    );
    expect(update.ExpressionAttributeValues).toEqual({ ':v0': 1, ':v1': 0, ':v2': 1, ':v3': ['w1'] });
  });

  it('leaves out attributes whose value is undefined, and keeps null ones', () => {
    // Act
    const update = updateOf(jobEntity, jobEntity.key('j1'), { set: { reviewText: undefined, hourlyRate: null } });

    // Assess
    expect(update.UpdateExpression).toBe('SET #hourlyRate = :v0');
    expect(update.ExpressionAttributeValues).toEqual({ ':v0': null });
  });

  it('sets and removes keys inside a map by positional names, whatever characters the key has', () => {
    // Act
    const update = updateOf(jobEntity, jobEntity.key('j1'), {
      setEntries: { offers: { 'a-b_c': 'later' } },
      removeEntries: { offers: ['x-y'] },
    });

    // Assess
    expect(update.UpdateExpression).toBe('SET #offers.#e0 = :v0 REMOVE #offers.#e1');
    expect(update.ExpressionAttributeNames).toEqual({ '#offers': 'offers', '#e0': 'a-b_c', '#e1': 'x-y' });
  });

  it('builds the condition into the same placeholders as the update', () => {
    // Act
    const update = updateOf(jobEntity, jobEntity.key('j1'), {
      set: { state: 'accepted' },
      if: (c) => c.and(c.exists('pk'), c.oneOf('state', ['booked', 'offered']), c.gt(c.entry('offers', 'w1'), 'now'), c.not(c.eq('customerId', 'c1'))),
    });

    // Assess
    // (An accepted job is among the open ones: the write files it there, before the condition's values.)
    expect(update.ConditionExpression).toBe('(attribute_exists(#pk)) AND (#state IN (:v2, :v3)) AND (#offers.#e0 > :v4) AND (NOT (#customerId = :v5))');
    // (The job's shard of the open jobs is hashed from its key, which every update knows.)
    const shard = jobEntity.indexes.open.shardOf(jobEntity.key('j1'));
    expect(update.ExpressionAttributeValues).toEqual({ ':v0': 'accepted', ':v1': `OPENJOBS#${shard}`, ':v2': 'booked', ':v3': 'offered', ':v4': 'now', ':v5': 'c1' });
  });

  it('leaves out the conditions given only in some cases', () => {
    // Act
    const condition = conditionOf(jobEntity, (c) => c.or(c.notExists('invoiceId'), false, c.hasType('endedAt', 'NULL')));

    // Assess
    expect(condition.ConditionExpression).toBe('(attribute_not_exists(#invoiceId)) OR (attribute_type(#endedAt, :v0))');
  });

  it('refuses an update that changes nothing', () => {
    // Act / Assess
    expect(() => updateOf<JobItem>(jobEntity, jobEntity.key('j1'), { set: { reviewText: undefined } })).toThrow(/must change something/);
  });
});

describe('index keys by membership', () => {
  it('sets the keys of an index the update puts the item in, in the same expression', () => {
    // Act: a job nobody took joins its trade's unfilled jobs
    const update = updateOf(jobEntity, jobEntity.key('j1'), {
      set: { dispatch: 'no_worker_available', noWorkerAt: 'now' },
      known: { category: 'plumbing', acceptedBy: null },
    });

    // Assess
    expect(update.UpdateExpression).toBe('SET #dispatch = :v0, #noWorkerAt = :v1, #gsi2pk = :v2, #gsi2sk = :v3');
    expect(update.ExpressionAttributeValues).toEqual({ ':v0': 'no_worker_available', ':v1': 'now', ':v2': 'UNFILLED#plumbing', ':v3': 'now' });
  });

  it('removes the keys of an index the item no longer belongs to, and copies a key it does not know', () => {
    // Act: a job cancelled before anyone held it
    const update = updateOf(jobEntity, jobEntity.key('j1'), {
      set: { state: 'cancelled', dispatch: 'done', cancelledAt: 'now' },
      known: { acceptedBy: null },
    });

    // Assess
    expect(update.UpdateExpression).toBe('SET #state = :v0, #dispatch = :v1, #cancelledAt = :v2 REMOVE #gsi2pk, #gsi2sk, #gsi4pk, #gsi4sk');

    // Act: a job going back among the open ones copies its sort key from its own createdAt
    const reopened = updateOf(jobEntity, jobEntity.key('j1'), { set: { state: 'booked' } });

    // Assess
    expect(reopened.UpdateExpression).toBe('SET #state = :v0, #gsi4pk = :v1, #gsi4sk = #createdAt');
  });

  it('puts an item with exactly the keys of the indexes it belongs to', () => {
    // Act: a crew member is kept out of its customer's requests
    const put = putOf(jobEntity, {
      ...jobEntity.key('j2'),
      gsi1pk: 'CUSTOMER#c1',
      gsi1sk: 'REQUEST#t',
      entity: 'job',
      id: 'j2',
      customerId: 'c1',
      crew: { leadId: 'j1', index: 2, size: 2, jobIds: ['j1', 'j2'] },
      createdAt: 't',
      state: 'booked',
      acceptedBy: null,
      dispatch: 'searching',
    } as unknown as JobItem);

    // Assess
    expect(put.Item).not.toHaveProperty('gsi1pk');
    const shard = jobEntity.indexes.all.shardOf(jobEntity.key('j2'));
    expect(put.Item).toMatchObject({ gsi3pk: `JOBS#${shard}`, gsi3sk: 'JOB#t', gsi4pk: `OPENJOBS#${shard}`, gsi4sk: 't' });
  });
});
