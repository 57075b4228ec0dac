import { describe, expect, it } from 'vitest';
import type { MeterSnapshot } from '../local/dynamo-meter';
import { hottest, isOwnPartition, monthlyCost, perBooking, PRICES, SCALES } from './capacity-model';

const snapshot = (partitions: MeterSnapshot['partitions'], extra: Partial<MeterSnapshot> = {}): MeterSnapshot => ({
  writeUnits: Object.values(partitions).reduce((s, p) => s + p.writeUnits, 0),
  readUnits: Object.values(partitions).reduce((s, p) => s + p.readUnits, 0),
  writes: 0,
  reads: 0,
  refusedWrites: 0,
  created: {},
  partitions,
  contention: {},
  ...extra,
});

const counts = { bookings: 4, fixesSent: 8, fixesPerBooking: 900, httpCalls: 40, framesIn: 4, framesOut: 8, fixFramesIn: 8, fixFramesOut: 8, connectionMinutes: 60, otherRuns: 12 };

describe('the capacity model', () => {
  it("tells one thing's partitions (an id, a connection, an address) from those every booking shares", () => {
    // Act
    const own = ['table:JOB#fP9DGPI3hgP632bQYaUZ5A', 'table:CONN#hDlnREx5nuX+Uj8=', 'table:CONN#ATyQeShvuDtOWfw=', 'table:TALLY#RZCrN_drsCFoKaYFIWUriA', 'gsi1:EMAIL#a@example.com'].map(isOwnPartition);
    const shared = ['gsi3:JOBS', 'gsi3:JOBS#3', 'table:STATS', 'table:DISPATCH#plumbing#9q8y', 'table:DAY#2026-11-29', 'gsi1:MAILQ#5'].map(isOwnPartition);

    // Assess
    expect(own).toEqual([true, true, true, true, true]);
    expect(shared).toEqual([false, false, false, false, false, false]);
  });

  it('gives per booking the lifecycle over the bookings plus each fix times a booking’s fixes', () => {
    // Prepare: 4 bookings wrote 40 units on a shared index; 8 fixes wrote 8 units on the jobs' own items
    const lifecycle = snapshot({ 'gsi3:JOBS': { writeUnits: 40, readUnits: 0 } }, { created: { 'outbound-mail': 8 } });
    const fixes = snapshot({ 'table:JOB#fP9DGPI3hgP632bQYaUZ5A': { writeUnits: 8, readUnits: 4 } });

    // Act
    const model = perBooking(lifecycle, fixes, counts);

    // Assess: 10 + 900 writes, 0 + 450 reads; the fixes' frames are 2 a fix
    expect(model.writeUnits).toBe(910);
    expect(model.readUnits).toBe(450);
    expect(model.shared).toEqual({ 'gsi3:JOBS': { writeUnits: 10, readUnits: 0 } });
    expect(model.websocketFrames).toBe(3 + 1800);
    expect(model.functionRuns).toBe(10 + 1 + 3 + 900);
    expect(model.mails).toBe(2);
    expect(model.ownLargest?.load.writeUnits).toBe(8 * (900 / 8) * 4);
  });

  it('scales a shared partition with the bookings a second and finds the one nearest its limit', () => {
    // Prepare: 30 write units a booking on one shard, 3 on another
    const model = perBooking(snapshot({ 'gsi3:JOBS#1': { writeUnits: 120, readUnits: 0 }, 'gsi3:JOBS#2': { writeUnits: 12, readUnits: 0 } }), snapshot({}), counts);

    // Act
    const [, , hundred, burst] = hottest(model);

    // Assess: at 100x, 30 × 3.86 a second; in the burst, 30 × 16.7 (half the limit)
    expect(hundred!.partition).toBe('gsi3:JOBS#1');
    expect(hundred!.writeUnitsPerSecond).toBeCloseTo(30 * SCALES[2]!.bookingsPerSecond, 6);
    expect(burst!.share).toBeCloseTo(0.5, 6);
  });

  it('prices each line from the counts per booking and the bookings a month', () => {
    // Prepare
    const model = perBooking(snapshot({ 'gsi3:JOBS': { writeUnits: 40, readUnits: 20 } }), snapshot({}), { ...counts, fixesSent: 0 });

    // Act
    const lines = monthlyCost(model);

    // Assess: 10 write units and 5 read units a booking, 100,000 bookings at 1x
    expect(lines.find((l) => l.line === 'DynamoDB writes')!.dollars[0]).toBeCloseTo(10 * 100_000 * PRICES.dynamoWriteUnit, 9);
    expect(lines.find((l) => l.line === 'DynamoDB reads')!.dollars[2]).toBeCloseTo(5 * 10_000_000 * PRICES.dynamoReadUnit, 9);
    expect(lines.find((l) => l.line === 'API Gateway HTTP API')!.dollars[1]).toBeCloseTo(10 * 1_000_000 * PRICES.httpApiRequest, 9);
  });
});
