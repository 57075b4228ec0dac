import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvedPro, bringOnCall, ownerCookie, type Pro } from '../../web/e2e/people';
import { acceptAll, book, counted, NEAR } from '../bench/capacity';
import { isOwnPartition } from '../bench/capacity-model';
import { capacityMeter } from './dynamo-meter';
import { startLocalStack, type LocalStack } from './stack';

/**
 * A burst of bookings and accepts at once on the local stack, metered: no transaction meets another
 * write on an item many bookings share (a counter, a list's item). The local front serialises such
 * writes; in DynamoDB one of the two would be refused (TransactionConflict) and the booking or the
 * accept would fail, so this holds only while nothing on a request's path writes such an item.
 */
const BOOKINGS = 8;
const PROS = 4;

const dataDir = mkdtempSync(path.join(tmpdir(), 'marketplace-burst-'));
const meter = capacityMeter();
let stack: LocalStack;
let pros: Pro[];

beforeAll(async () => {
  // The pros and customers all come from one loopback address, which the creation limits would count as one person.
  process.env.CREATION_LIMIT_SCALE = '1000';
  stack = await startLocalStack({ port: 0, dataDir, web: false, meter });
  const owner = await ownerCookie({ url: stack.url, setupCode: stack.ownerSetup?.code });
  pros = [];
  for (let i = 0; i < PROS; i++) pros.push(await approvedPro(stack.url, owner, `Burst Pro ${i}`, ['plumbing']));
  await Promise.all(pros.map((pro) => bringOnCall(stack.url, pro, NEAR)));
}, 240_000);

afterAll(async () => {
  await stack?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a burst of bookings and accepts', () => {
  it('meets no other write on any shared item: every contended item is one booking’s, pro’s or customer’s own', async () => {
    // Prepare
    const api = counted(stack.url, { httpCalls: 0 });
    meter.reset();

    // Act: the bookings at once, then every pro taking offers at once until each holds one
    const customers = await Promise.all(Array.from({ length: BOOKINGS }, (_, i) => book(api, i, 'Plumbing')));
    const held = await acceptAll(api, pros, customers);

    // Assess
    const { contention, created } = meter.snapshot();
    expect(held).toHaveLength(PROS);
    expect(created.job).toBe(BOOKINGS);
    expect(Object.keys(contention).filter((partition) => !isOwnPartition(partition))).toEqual([]);
  }, 180_000);
});
