import { describe, expect, it } from 'vitest';
import { handler as clockIn } from './clock-in';
import { handler } from './clock-out';
import { workersRepo } from './data/workers';
import { invoke, sampleEvent } from '../testing/events';
import { createTestWorker, withBearer, workerToken } from '../testing/workers';

const sample = sampleEvent('clock-out');

async function asWorker(overrides = {}) {
  const worker = await createTestWorker(overrides);
  return { worker, token: await workerToken(worker.id) };
}

describe('POST /api/workers/clock-out', () => {
  it('clocks a clocked-in worker out and keeps the last clock-in time', async () => {
    // Prepare
    const { worker, token } = await asWorker();
    const inRes = await invoke(clockIn, withBearer(sampleEvent('clock-in'), token));

    // Act
    const res = await invoke(handler, withBearer(sample, token));

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ isClockedIn: false });
    expect(await workersRepo.findById(worker.id)).toMatchObject({ isClockedIn: false, lastClockIn: inRes.body.lastClockIn });
  });

  it('refuses clocking out without being in with 409', async () => {
    const { token } = await asWorker();

    const res = await invoke(handler, withBearer(sample, token));

    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'ConflictError', message: 'You are not clocked in.' });
  });

  it('lets a worker clock in again after clocking out', async () => {
    const { token } = await asWorker();
    await invoke(clockIn, withBearer(sampleEvent('clock-in'), token));
    await invoke(handler, withBearer(sample, token));

    const again = await invoke(clockIn, withBearer(sampleEvent('clock-in'), token));

    expect(again.status).toBe(200);
  });

  it.each(['pending_review', 'terminated'] as const)('refuses a %s worker with 403 and changes nothing', async (status) => {
    const { worker, token } = await asWorker({ status, isClockedIn: true, lastClockIn: '2026-11-20T08:00:00.000Z' });

    const res = await invoke(handler, withBearer(sample, token));

    expect(res.status).toBe(403);
    expect((await workersRepo.findById(worker.id))?.isClockedIn).toBe(true);
  });

  it('refuses a call without a token with 401', async () => {
    expect((await invoke(handler, sample)).status).toBe(401);
  });
});
