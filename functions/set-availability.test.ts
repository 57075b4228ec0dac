import { describe, expect, it } from 'vitest';
import { workersRepo } from './lib/data/workers';
import { invoke, sampleEvent, withBody } from './lib/testing/events';
import { createTestWorker, withBearer, workerToken } from './lib/testing/workers';
import { handler } from './set-availability';

const sample = sampleEvent('set-availability');

async function asWorker(overrides = {}) {
  const worker = await createTestWorker(overrides);
  return { worker, token: await workerToken(worker.id) };
}

describe('POST /api/workers/availability', () => {
  it('turns availability on and off and stores it', async () => {
    // Prepare
    const { worker, token } = await asWorker();

    // Act
    const on = await invoke(handler, withBearer(withBody(sample, { isAvailable: true }), token));
    const storedOn = await workersRepo.findById(worker.id);
    const off = await invoke(handler, withBearer(withBody(sample, { isAvailable: false }), token));

    // Assess
    expect(on.status).toBe(200);
    expect(on.body).toEqual({ isAvailable: true });
    expect(storedOn?.isAvailable).toBe(true);
    expect(off.body).toEqual({ isAvailable: false });
    expect((await workersRepo.findById(worker.id))?.isAvailable).toBe(false);
  });

  it("changes only the token's worker", async () => {
    const { token } = await asWorker();
    const other = await createTestWorker();

    await invoke(handler, withBearer(withBody(sample, { isAvailable: true }), token));

    expect((await workersRepo.findById(other.id))?.isAvailable).toBe(false);
  });

  it.each([
    ['pending_review', 'Your application is still under review.'],
    ['terminated', 'This account has been terminated.'],
  ] as const)('refuses a %s worker with 403 and changes nothing', async (status, message) => {
    const { worker, token } = await asWorker({ status });

    const res = await invoke(handler, withBearer(withBody(sample, { isAvailable: true }), token));

    expect(res.status).toBe(403);
    expect(res.body.message).toBe(message);
    expect((await workersRepo.findById(worker.id))?.isAvailable).toBe(false);
  });

  it('refuses a call without a token with 401', async () => {
    expect((await invoke(handler, sample)).status).toBe(401);
  });

  it.each([
    [{}, { isAvailable: 'isAvailable must be true or false' }],
    [{ isAvailable: 'yes' }, { isAvailable: 'isAvailable must be true or false' }],
    [{ isAvailable: true, workerId: 'someone-else' }, { _: 'Unknown field: workerId' }],
  ])('refuses %j with 400', async (body, fields) => {
    const { worker, token } = await asWorker();

    const res = await invoke(handler, withBearer(withBody(sample, body), token));

    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual(fields);
    expect((await workersRepo.findById(worker.id))?.isAvailable).toBe(false);
  });
});
