import { describe, expect, it } from 'vitest';
import { handler as getSelf } from './get-worker-self';
import { workersRepo } from './data/workers';
import { invoke, sampleEvent, withBody } from '../testing/events';
import { createTestWorker, withBearer, workerToken } from '../testing/workers';
import { handler } from './set-worker-type';

const sample = sampleEvent('set-worker-type');

async function asWorker(overrides = {}) {
  const worker = await createTestWorker(overrides);
  return { worker, token: await workerToken(worker.id) };
}

describe('POST /api/workers/worker-type', () => {
  it('stores the choice on the server, where the worker view reads it', async () => {
    // Prepare
    const { worker, token } = await asWorker();

    // Act
    const res = await invoke(handler, withBearer(withBody(sample, { workerType: 'contract' }), token));

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ workerType: 'contract' });
    expect((await workersRepo.findById(worker.id))?.workerType).toBe('contract');
    const me = await invoke(getSelf, withBearer(sampleEvent('get-worker-self'), token));
    expect(me.body.workerType).toBe('contract');
  });

  it('can be changed later', async () => {
    const { worker, token } = await asWorker({ workerType: 'contract' });

    const res = await invoke(handler, withBearer(sample, token));

    expect(res.body).toEqual({ workerType: 'independent' });
    expect((await workersRepo.findById(worker.id))?.workerType).toBe('independent');
  });

  it.each(['pending_review', 'terminated'] as const)('refuses a %s worker with 403 and changes nothing', async (status) => {
    const { worker, token } = await asWorker({ status });

    const res = await invoke(handler, withBearer(sample, token));

    expect(res.status).toBe(403);
    expect((await workersRepo.findById(worker.id))?.workerType).toBeNull();
  });

  it.each([
    [{ workerType: 'freelance' }, { workerType: 'Choose contract or independent' }],
    [{}, { workerType: 'Choose contract or independent' }],
    [{ workerType: 'contract', workerId: 'someone-else' }, { _: 'Unknown field: workerId' }],
  ])('refuses %j with 400', async (body, fields) => {
    const { token } = await asWorker();

    const res = await invoke(handler, withBearer(withBody(sample, body), token));

    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual(fields);
  });

  it('refuses a call without a token with 401', async () => {
    expect((await invoke(handler, sample)).status).toBe(401);
  });
});
