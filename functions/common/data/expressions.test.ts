import { describe, expect, it } from 'vitest';
import { jobEntity, statsEntity, workerEntity, type JobItem } from '../../../shared/entities';
import { conditionOf, increment, incrementFrom, listAppend, updateOf, valueOf } from './expressions';

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
    const update = updateOf(jobEntity, jobEntity.key('j1'), { set: { reviewText: undefined, acceptedBy: null } });

    // Assess
    expect(update.UpdateExpression).toBe('SET #acceptedBy = :v0');
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
    expect(update.ConditionExpression).toBe('(attribute_exists(#pk)) AND (#state IN (:v1, :v2)) AND (#offers.#e0 > :v3) AND (NOT (#customerId = :v4))');
    expect(update.ExpressionAttributeValues).toEqual({ ':v0': 'accepted', ':v1': 'booked', ':v2': 'offered', ':v3': 'now', ':v4': 'c1' });
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
