import { describe, expect, it } from 'vitest';
import { capacityMeter, itemBytes, queriedPartition } from './dynamo-meter';

const S = (value: string) => ({ S: value });
const padded = (bytes: number) => 'x'.repeat(bytes);

describe('capacityMeter: units as DynamoDB bills them', () => {
  it('charges a write one unit per started kilobyte of the larger image, twice in a transaction', () => {
    // Prepare
    const meter = capacityMeter();
    const small = { pk: S('JOB#a'), sk: S('JOB') };
    const large = { ...small, body: S(padded(1500)) };

    // Act
    meter.write({ key: small, before: undefined, after: small, ok: true, transactional: false });
    meter.write({ key: small, before: large, after: small, ok: true, transactional: false });
    meter.write({ key: small, before: small, after: large, ok: true, transactional: true });

    // Assess: 1, then 2 (the larger image is 1.5 KB), then 2 × 2
    expect(meter.snapshot().partitions['table:JOB#a']!.writeUnits).toBe(7);
    expect(meter.snapshot().writeUnits).toBe(7);
  });

  it('charges an index partition the item joins, the one it leaves, and one it is rewritten in', () => {
    // Prepare
    const meter = capacityMeter();
    const key = { pk: S('JOB#a'), sk: S('JOB') };
    const open = { ...key, gsi4pk: S('OPENJOBS#1'), gsi4sk: S('2026-01-01') };
    const openAgain = { ...open, state: S('accepted') };
    const closed = { ...key, state: S('done') };

    // Act
    meter.write({ key, before: undefined, after: open, ok: true, transactional: false });
    meter.write({ key, before: open, after: openAgain, ok: true, transactional: false });
    meter.write({ key, before: openAgain, after: closed, ok: true, transactional: false });

    // Assess: joined (1), rewritten in place (1), left (1); the table's item each time
    const { partitions } = meter.snapshot();
    expect(partitions['gsi4:OPENJOBS#1']!.writeUnits).toBe(3);
    expect(partitions['table:JOB#a']!.writeUnits).toBe(3);
  });

  it('charges a refused conditional write and counts it, with no index write and no item created', () => {
    // Prepare
    const meter = capacityMeter();
    const key = { pk: S('CONN#c'), sk: S('CONN') };
    const stored = { ...key, entity: S('connection'), gsi1pk: S('ROOM#r') };

    // Act
    meter.write({ key, before: stored, after: stored, ok: false, transactional: false });

    // Assess
    const snapshot = meter.snapshot();
    expect(snapshot.refusedWrites).toBe(1);
    expect(snapshot.partitions['table:CONN#c']!.writeUnits).toBe(1);
    expect(snapshot.partitions['gsi1:ROOM#r']).toBeUndefined();
    expect(snapshot.created).toEqual({});
  });

  it('counts the entities created, and reads by the partition they name', () => {
    // Prepare
    const meter = capacityMeter();
    const mail = { pk: S('MAIL#m'), sk: S('MAIL'), entity: S('outbound-mail') };

    // Act
    meter.write({ key: mail, before: undefined, after: mail, ok: true, transactional: false });
    meter.read({ partition: 'JOB#a', units: 0.5 });
    meter.read({ index: 'gsi3', partition: 'JOBS#2', units: 3 });
    meter.contended('table:STATS');

    // Assess
    const snapshot = meter.snapshot();
    expect(snapshot.created).toEqual({ 'outbound-mail': 1 });
    expect(snapshot.partitions['table:JOB#a']!.readUnits).toBe(0.5);
    expect(snapshot.partitions['gsi3:JOBS#2']!.readUnits).toBe(3);
    expect(snapshot.readUnits).toBe(3.5);
    expect(snapshot.contention).toEqual({ 'table:STATS': 1 });
  });

  it('starts again from nothing after a reset', () => {
    // Prepare
    const meter = capacityMeter();
    meter.read({ partition: 'JOB#a', units: 1 });

    // Act
    meter.reset();

    // Assess
    expect(meter.snapshot()).toMatchObject({ readUnits: 0, writeUnits: 0, partitions: {} });
  });
});

describe('itemBytes', () => {
  it('counts attribute names and values as DynamoDB sizes them', () => {
    // Act
    const size = itemBytes({ pk: S('abc'), n: { N: '12345' }, ok: { BOOL: true }, list: { L: [S('ab')] }, map: { M: { k: S('v') } } });

    // Assess: pk 2+3, n 1+4, ok 2+1, list 4+(3+1+2), map 3+(3+1+1+1)
    expect(size).toBe(5 + 5 + 3 + 10 + 9);
  });
});

describe('queriedPartition', () => {
  it("finds the value the key condition gives the queried index's partition key, through attribute names", () => {
    // Act
    const onIndex = queriedPartition({
      IndexName: 'gsi3',
      KeyConditionExpression: '#k0 = :v0 AND begins_with(#k1, :v1)',
      ExpressionAttributeNames: { '#k0': 'gsi3pk', '#k1': 'gsi3sk' },
      ExpressionAttributeValues: { ':v0': S('JOBS#4'), ':v1': S('JOB#') },
    });
    const onTable = queriedPartition({ KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': S('WORKER#w') } });

    // Assess
    expect(onIndex).toBe('JOBS#4');
    expect(onTable).toBe('WORKER#w');
  });
});
