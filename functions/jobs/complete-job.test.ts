import { describe, expect, it } from 'vitest';
import { handler } from './complete-job';
import { handler as accept } from './accept-job';
import { handler as setState } from './set-job-state';
import { jobsRepo } from './data/jobs';
import { workersRepo } from '../workers/data/workers';
import { dispatchableWorker, offeredJob, testCategory, testJob, testPlace } from '../testing/dispatch';
import { takenBy, testCrew } from '../testing/crews';
import { mailsTo, outboxRecord } from '../testing/mail';
import { handler as sendMail } from '../mail/send-mail';
import { invoke, sampleEvent, withBody, withPath } from '../testing/events';
import { withBearer, workerToken } from '../testing/workers';

const sample = sampleEvent('complete-job');

async function jobIn(states: readonly ('arrived' | 'in_progress')[], customerEmail?: string) {
  const category = testCategory();
  const place = testPlace();
  const worker = await dispatchableWorker(category, null);
  const job = customerEmail ? await testJob(category, place, { customerEmail }) : await offeredJob(category, [worker.id], 120, place);
  if (customerEmail) await jobsRepo.addOffers(job, { [worker.id]: new Date(Date.now() + 120_000).toISOString() }, new Date().toISOString());
  const token = await workerToken(worker.id);
  await invoke(accept, withBearer(withPath(withBody(sampleEvent('accept-job'), {}), { jobId: job.id }), token));
  for (const state of states) {
    // Arriving takes a fix at the address.
    const body = state === 'arrived' ? { state, position: { lat: place.lat, lng: place.lng, accuracy: 10 } } : { state };
    await invoke(setState, withBearer(withPath(withBody(sampleEvent('set-job-state'), body), { id: job.id }), token));
  }
  return { worker, job, token };
}

describe('POST /api/jobs/{id}/complete', () => {
  it('completes a job in progress, fixes its billable hours and frees the worker for the next job', async () => {
    // Prepare
    const { worker, job, token } = await jobIn(['arrived', 'in_progress']);

    // Act
    const res = await invoke(handler, withBearer(withPath(withBody(sample, { workerId: worker.id }), { id: job.id }), token));

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ state: 'completed', nextStates: [] });
    expect(await jobsRepo.findById(job.id)).toMatchObject({ state: 'completed', totalHours: 1, dispatch: 'done' });
    expect((await workersRepo.findById(worker.id))?.activeJobId).toBeUndefined();
    expect((await jobsRepo.listCompletedBy(worker.id)).map((j) => j.id)).toEqual([job.id]);
    expect(await jobsRepo.listHeldBy(worker.id)).toEqual([]);
  });

  it('refuses a job not yet started with 409 and keeps the worker on it', async () => {
    const { worker, job, token } = await jobIn(['arrived']);

    const res = await invoke(handler, withBearer(withPath(withBody(sample, {}), { id: job.id }), token));

    expect(res.status).toBe(409);
    expect(res.body.message).toBe('A job that is arrived can move only to: in_progress.');
    expect((await workersRepo.findById(worker.id))?.activeJobId).toBe(job.id);
  });

  it('completes once: a second call gets 409', async () => {
    const { job, token } = await jobIn(['arrived', 'in_progress']);
    const event = withBearer(withPath(withBody(sample, {}), { id: job.id }), token);

    const results = await Promise.all([invoke(handler, event), invoke(handler, event)]);

    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
  });
});

describe('POST /api/jobs/{id}/complete: the mail', () => {
  const complete = (workerId: string, jobId: string, token: string) => invoke(handler, withBearer(withPath(withBody(sample, { workerId }), { id: jobId }), token));

  it('mails the customer once to verify the work, with the tracking page where Verify is, even when delivered twice', async () => {
    // Prepare
    const email = `done-${crypto.randomUUID()}@example.com`;
    const { worker, job, token } = await jobIn(['arrived', 'in_progress'], email);

    // Act: completed, pressed again, and the mail's record delivered twice
    await complete(worker.id, job.id, token);
    await complete(worker.id, job.id, token);
    const record = await outboxRecord('work-completed', `${job.id}:0`);
    await sendMail({ Records: [record] });
    await sendMail({ Records: [record] });

    // Assess
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('Your Plumbing work is complete: please check it');
    expect(mails[0]!.text).toContain('after 1.0 hours');
    expect(mails[0]!.text).toContain(`Verify the work: http://localhost:3000/track#id=${job.id}`);
  });

  it("mails a crew's customer once, when the last pro completes, with the request's page", async () => {
    // Prepare: a crew of two, both pros at work
    const email = `crewdone-${crypto.randomUUID()}@example.com`;
    const category = testCategory();
    const [lead, member] = await testCrew(category, null, 2, { customerEmail: email });
    const [first, last] = await Promise.all([dispatchableWorker(category, null), dispatchableWorker(category, null)]);
    for (const [job, pro] of [[member!, first], [lead!, last]] as const) {
      await takenBy(job, pro.id);
      const now = new Date().toISOString();
      await jobsRepo.advance({ jobId: job.id, workerId: pro.id, from: 'accepted', to: 'arrived', stamp: 'arrivedAt', now });
      await jobsRepo.advance({ jobId: job.id, workerId: pro.id, from: 'arrived', to: 'in_progress', stamp: 'startedAt', now });
    }

    // Act: the first pro completes while the other is still at work, then the last one
    await complete(first.id, member!.id, await workerToken(first.id));
    const early = await outboxRecord('work-completed', `${lead!.id}:0`).catch(() => undefined);
    await complete(last.id, lead!.id, await workerToken(last.id));
    await sendMail({ Records: [await outboxRecord('work-completed', `${lead!.id}:0`)] });

    // Assess
    expect(early).toBeUndefined();
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain('Every pro of your Plumbing request has marked the work complete');
    expect(mails[0]!.text).toContain(`Verify the work: http://localhost:3000/track#id=${lead!.id}`);
  });
});
