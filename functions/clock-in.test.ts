import { describe, expect, it } from 'vitest';
import { handler } from './clock-in';
import { workersRepo } from './lib/data/workers';
import { invoke, sampleEvent, withBody, withHeaders } from './lib/testing/events';
import { createTestWorker, withBearer, workerToken } from './lib/testing/workers';

const sample = sampleEvent('clock-in');

async function asWorker(overrides = {}) {
  const worker = await createTestWorker(overrides);
  return { worker, token: await workerToken(worker.id) };
}

describe('POST /api/workers/clock-in', () => {
  it('clocks the worker in and records the time', async () => {
    // Prepare
    const { worker, token } = await asWorker();
    const before = Date.now();

    // Act
    const res = await invoke(handler, withBearer(sample, token));

    // Assess
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['isClockedIn', 'lastClockIn']);
    expect(res.body.isClockedIn).toBe(true);
    expect(Date.parse(res.body.lastClockIn)).toBeGreaterThanOrEqual(before - 1000);
    expect(await workersRepo.findById(worker.id)).toMatchObject({ isClockedIn: true, lastClockIn: res.body.lastClockIn });
  });

  it('refuses a second clock-in with 409 and keeps the first time', async () => {
    const { worker, token } = await asWorker();
    const first = await invoke(handler, withBearer(sample, token));

    const second = await invoke(handler, withBearer(sample, token));

    expect(second.status).toBe(409);
    expect(second.body).toEqual({ error: 'ConflictError', message: 'You are already clocked in.' });
    expect((await workersRepo.findById(worker.id))?.lastClockIn).toBe(first.body.lastClockIn);
  });

  it('lets exactly one of two concurrent clock-ins through', async () => {
    const { token } = await asWorker();

    const results = await Promise.all([invoke(handler, withBearer(sample, token)), invoke(handler, withBearer(sample, token))]);

    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
  });

  it.each(['pending_review', 'terminated'] as const)('refuses a %s worker with 403 and changes nothing', async (status) => {
    const { worker, token } = await asWorker({ status });

    const res = await invoke(handler, withBearer(sample, token));

    expect(res.status).toBe(403);
    expect(await workersRepo.findById(worker.id)).toMatchObject({ isClockedIn: false, lastClockIn: null });
  });

  it("changes only the token's worker", async () => {
    const { token } = await asWorker();
    const other = await createTestWorker();

    await invoke(handler, withBearer(sample, token));

    expect((await workersRepo.findById(other.id))?.isClockedIn).toBe(false);
  });

  it('takes no body, so no other worker can be named', async () => {
    const { token } = await asWorker();
    const event = withHeaders(withBody(sample, { workerId: 'someone-else' }), { 'content-type': 'application/json' });

    const res = await invoke(handler, withBearer(event, token));

    expect(res.status).toBe(400);
  });

  it('refuses a call without a token with 401', async () => {
    expect((await invoke(handler, sample)).status).toBe(401);
  });
});
