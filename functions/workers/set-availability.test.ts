import { describe, expect, it } from 'vitest';
import { jobsRepo } from '../jobs/data/jobs';
import { workersRepo, type WorkerItem } from './data/workers';
import { dispatchableWorker, offeredJob, testCategory } from '../testing/dispatch';
import { completedJob } from '../testing/money';
import { invoke, sampleEvent, withBody } from '../testing/events';
import { createTestWorker, withBearer, workerToken } from '../testing/workers';
import { handler } from './set-availability';

const sample = sampleEvent('set-availability');

async function asWorker(overrides = {}) {
  const worker = await createTestWorker(overrides);
  return { worker, token: await workerToken(worker.id) };
}

/** An on-call pro of `workerType` who accepted a job offered to them, as accept-job leaves them. */
async function holdingAJob(workerType: WorkerItem['workerType']) {
  const worker = await dispatchableWorker(testCategory(), null, { workerType });
  const job = await offeredJob(worker.categories[0]!, [worker.id]);
  const now = new Date().toISOString();
  await jobsRepo.accept({ jobId: job.id, workerId: worker.id, hourlyRate: worker.hourlyRate, now, arriveBy: new Date(Date.now() + 60_000).toISOString() });
  return { worker, job, token: await workerToken(worker.id) };
}

const offCall = (token: string) => withBearer(withBody(sample, { isAvailable: false }), token);

describe('going off call by worker type', () => {
  it('refuses an independent pro holding a newly accepted job with 409, saying what to do, and keeps them on call', async () => {
    // Prepare
    const { worker, token } = await holdingAJob('independent');

    // Act
    const res = await invoke(handler, offCall(token));

    // Assess
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('Finish your current job before going off call: as an independent pro you stay on call while you hold one.');
    expect((await workersRepo.findById(worker.id))?.isAvailable).toBe(true);
  });

  it('lets an independent pro go off call once the job is finished', async () => {
    const worker = await dispatchableWorker(testCategory(), null, { workerType: 'independent' });
    await completedJob(worker.categories[0]!, worker);

    const res = await invoke(handler, offCall(await workerToken(worker.id)));

    expect(res.status).toBe(200);
    expect((await workersRepo.findById(worker.id))?.isAvailable).toBe(false);
  });

  it('lets an independent pro without a job go off call', async () => {
    const worker = await dispatchableWorker(testCategory(), null, { workerType: 'independent' });

    const res = await invoke(handler, offCall(await workerToken(worker.id)));

    expect(res.body).toEqual({ isAvailable: false });
  });

  it.each([
    ['a contract pro', 'contract'],
    ['a pro who has not chosen a type', null],
  ] as const)('lets %s holding a job go off call: the on-call promise is the independent way of working', async (_who, workerType) => {
    const { worker, token } = await holdingAJob(workerType);

    const res = await invoke(handler, offCall(token));

    expect(res.status).toBe(200);
    expect((await workersRepo.findById(worker.id))?.isAvailable).toBe(false);
  });

  it('lets an independent pro holding a job come on call again', async () => {
    const { token } = await holdingAJob('independent');

    const res = await invoke(handler, withBearer(withBody(sample, { isAvailable: true }), token));

    expect(res.body).toEqual({ isAvailable: true });
  });
});

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
