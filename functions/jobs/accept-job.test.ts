import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { keys } from '../../shared/entities';
import { handler } from './accept-job';
import { dynamo, tableName } from '../common/clients';
import { jobsRepo } from './data/jobs';
import { workersRepo } from '../workers/data/workers';
import { timerNames } from './dispatch';
import { env } from '../common/env';
import { dispatchableWorker, findSchedule, offeredJob, testCategory, testJob } from '../testing/dispatch';
import { mailsTo, outboxRecord } from '../testing/mail';
import { proAssigned } from '../mail/messages/customers';
import { handler as sendMail } from '../mail/send-mail';
import { invoke, sampleEvent, withBody, withPath } from '../testing/events';
import { createTestWorker, withBearer, workerToken } from '../testing/workers';

const sample = sampleEvent('accept-job');

async function acceptAs(workerId: string, jobId: string, body: unknown = { workerId }) {
  const token = await workerToken(workerId);
  return invoke(handler, withBearer(withPath(withBody(sample, body), { jobId }), token));
}

describe('POST /api/jobs/accept/{jobId}', () => {
  it('gives the job to the worker, sets arriveBy 45 minutes ahead and schedules the arrival timer', async () => {
    // Prepare
    const category = testCategory();
    const worker = await dispatchableWorker(category, null, { hourlyRate: 5200 });
    const job = await offeredJob(category, [worker.id]);
    const before = Date.now();

    // Act
    const res = await acceptAs(worker.id, job.id);

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: job.id, state: 'accepted', hourlyRate: 5200, customerPhone: '555-010-0142', nextStates: ['en_route', 'arrived'] });
    const arriveBy = Date.parse(res.body.arriveBy);
    expect(arriveBy - before).toBeGreaterThanOrEqual(env.ARRIVAL_GRACE_SECONDS * 1000 - 1000);
    expect(arriveBy - before).toBeLessThan(env.ARRIVAL_GRACE_SECONDS * 1000 + 5000);
    expect(await jobsRepo.findById(job.id)).toMatchObject({ state: 'accepted', acceptedBy: worker.id, offers: {}, dispatch: 'assigned' });
    expect((await workersRepo.findById(worker.id))?.activeJobId).toBe(job.id);
    const timer = await findSchedule(timerNames.arrival(job.id, worker.id));
    expect(timer?.Target?.Arn).toMatch(/:function:enforce-arrival$/);
    expect(timer?.FlexibleTimeWindow).toEqual({ Mode: 'OFF' });
    expect(JSON.parse(timer!.Target!.Input!)).toEqual({ jobId: job.id, workerId: worker.id });
  });

  it('lets exactly one of 50 concurrent accepts win: 49 clear 409s, one job state, one arrival timer', async () => {
    // Prepare: the job offered to 50 workers at once, so each accept is a fair contender.
    const category = testCategory();
    const workers = await Promise.all(Array.from({ length: 50 }, () => dispatchableWorker(category, null)));
    const job = await offeredJob(category, workers.map((w) => w.id));
    const tokens = await Promise.all(workers.map((w) => workerToken(w.id)));

    // Act
    const results = await Promise.all(
      workers.map((w, i) => invoke(handler, withBearer(withPath(withBody(sample, { workerId: w.id }), { jobId: job.id }), tokens[i]!))),
    );

    // Assess
    const winners = results.filter((r) => r.status === 200);
    const losers = results.filter((r) => r.status !== 200);
    expect(winners).toHaveLength(1);
    expect(losers.map((r) => r.status)).toEqual(Array(49).fill(409));
    for (const r of losers) expect(r.body.message).toBe('Another professional accepted this job first.');
    const winner = workers[results.indexOf(winners[0]!)]!;
    const stored = await jobsRepo.findById(job.id);
    expect(stored).toMatchObject({ state: 'accepted', acceptedBy: winner.id });
    const held = await workersRepo.findMany(workers.map((w) => w.id));
    expect(held.filter((w) => w.activeJobId === job.id).map((w) => w.id)).toEqual([winner.id]);
    const timers = await Promise.all(workers.map((w) => findSchedule(timerNames.arrival(job.id, w.id))));
    expect(timers.filter(Boolean)).toHaveLength(1);
  });

  it('answers a retried accept by the winner as the win did, without a second timer or change', async () => {
    const category = testCategory();
    const worker = await dispatchableWorker(category, null);
    const job = await offeredJob(category, [worker.id]);
    const first = await acceptAs(worker.id, job.id);

    const again = await acceptAs(worker.id, job.id);

    expect(again.status).toBe(200);
    expect(again.body.arriveBy).toBe(first.body.arriveBy);
  });

  it('refuses an expired offer with 409 and leaves the job offered', async () => {
    const category = testCategory();
    const worker = await dispatchableWorker(category, null);
    const job = await offeredJob(category, [worker.id], -1);

    const res = await acceptAs(worker.id, job.id);

    expect(res.status).toBe(409);
    expect(res.body.message).toBe('This offer has expired.');
    expect((await jobsRepo.findById(job.id))?.state).toBe('offered');
  });

  it('refuses a worker the job was not offered to with 403', async () => {
    const category = testCategory();
    const [offered, stranger] = await Promise.all([dispatchableWorker(category, null), dispatchableWorker(category, null)]);
    const job = await offeredJob(category, [offered.id]);

    const res = await acceptAs(stranger.id, job.id);

    expect(res.status).toBe(403);
    expect(res.body.message).toBe('This job was not offered to you.');
    expect((await jobsRepo.findById(job.id))?.state).toBe('offered');
  });

  it('refuses a worker who already holds a job with 409 and keeps the offer open', async () => {
    const category = testCategory();
    const busy = await dispatchableWorker(category, null, { activeJobId: 'AnotherJobAnotherJob00' });
    const job = await offeredJob(category, [busy.id]);

    const res = await acceptAs(busy.id, job.id);

    expect(res.status).toBe(409);
    expect(res.body.message).toBe('Finish your current job before accepting another.');
    expect((await jobsRepo.findById(job.id))?.offers[busy.id]).toBeDefined();
  });

  it('refuses a terminated worker with 403', async () => {
    const category = testCategory();
    const worker = await createTestWorker({ status: 'terminated', strikes: 2, categories: [category] });
    const job = await offeredJob(category, [worker.id]);

    const res = await acceptAs(worker.id, job.id);

    expect(res.status).toBe(403);
    expect((await jobsRepo.findById(job.id))?.state).toBe('offered');
  });

  it("refuses a body naming another worker with 403 (the worker is always the token's)", async () => {
    const category = testCategory();
    const [worker, other] = await Promise.all([dispatchableWorker(category, null), dispatchableWorker(category, null)]);
    const job = await offeredJob(category, [worker.id, other.id]);

    const res = await acceptAs(worker.id, job.id, { workerId: other.id });

    expect(res.status).toBe(403);
    expect((await jobsRepo.findById(job.id))?.state).toBe('offered');
  });

  it('answers 404 for a job that does not exist', async () => {
    const worker = await dispatchableWorker(testCategory(), null);

    const res = await acceptAs(worker.id, 'NoSuchJobNoSuchJob0000');

    expect(res.status).toBe(404);
  });

  it('refuses an offer made before the pro\'s offers were paused (an expired required document), and the job stays offered', async () => {
    // Prepare: the offer is out; then the daily job pauses the pro (as expire-documents does, on the worker item).
    const category = testCategory();
    const worker = await dispatchableWorker(category, null);
    const job = await offeredJob(category, [worker.id]);
    await dynamo.send(
      new UpdateCommand({ TableName: tableName, Key: keys.worker(worker.id), UpdateExpression: 'ADD offersPausedFor :c', ExpressionAttributeValues: { ':c': new Set(['general-liability-insurance']) } }),
    );

    // Act
    const res = await acceptAs(worker.id, job.id);

    // Assess
    expect(res.status).toBe(403);
    expect(res.body.message).toContain('offers are paused');
    expect(await jobsRepo.findById(job.id)).toMatchObject({ state: 'offered' });
    expect((await workersRepo.findById(worker.id))?.activeJobId).toBeUndefined();
  });
});

describe('POST /api/jobs/accept/{jobId}: the mail', () => {
  it("mails the customer once who is coming, their rating, the arrival deadline and the tracking page, even when the accept is retried and delivered twice", async () => {
    // Prepare: a job whose customer gave an address of its own, offered to a rated pro
    const email = `accept-${crypto.randomUUID()}@example.com`;
    const category = testCategory();
    const worker = await dispatchableWorker(category, null, { fullName: 'Alex Rivera', ratingSum: 9, ratingCount: 2 });
    const job = await testJob(category, null, { customerEmail: email });
    await jobsRepo.addOffers(job, { [worker.id]: new Date(Date.now() + 120_000).toISOString() }, new Date().toISOString());

    // Act: accepted, the accept retried, and the mail's record delivered twice
    await acceptAs(worker.id, job.id);
    await acceptAs(worker.id, job.id);
    const record = await outboxRecord('pro-assigned', `${job.id}:0`);
    await sendMail({ Records: [record] });
    await sendMail({ Records: [record] });

    // Assess
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('Alex is your Plumbing pro');
    expect(mails[0]!.text).toContain('Alex accepted your Plumbing request (rated 4.5 out of 5 by 2 customers).');
    expect(mails[0]!.text).toContain(`They must arrive within ${env.ARRIVAL_GRACE_SECONDS / 60} minutes`);
    expect(mails[0]!.text).not.toContain('Rivera');
    expect(mails[0]!.text).toContain(`Track your pro: http://localhost:3000/track#id=${job.id}`);
  });

  it('names a new event for the next pro of a job sent back to dispatch, and the same for a retried accept', () => {
    const job = { id: 'job-1', customerName: 'Dana', customerEmail: 'dana@example.com', service: 'Plumbing', requestedTime: null, arriveBy: null, crew: undefined };
    const pro = { fullName: 'Alex Rivera', rating: null, reviews: 0 };

    expect(proAssigned(job, pro, 0, 45)?.subjectId).toBe(proAssigned(job, pro, 0, 45)?.subjectId);
    expect(proAssigned(job, pro, 1, 45)?.subjectId).not.toBe(proAssigned(job, pro, 0, 45)?.subjectId);
    expect(proAssigned(job, pro, 0, 45)?.paragraphs.join(' ')).toContain('new on Fixly');
  });

  it("tells a crew's customer which of their pros this is, linking the request's page", () => {
    const member = { id: 'job-2', customerName: 'Dana', customerEmail: 'dana@example.com', service: 'Moving', requestedTime: null, arriveBy: null, crew: { leadId: 'job-1', index: 2, size: 2, jobIds: ['job-1', 'job-2'] } };

    const message = proAssigned(member, { fullName: 'Sam Lee', rating: 5, reviews: 1 }, 0, 45);

    expect(message?.paragraphs.join(' ')).toContain('Sam is one of your 2 pros');
    expect(message?.action?.path).toBe('/track#id=job-1');
  });

  it('writes nothing for a customer who gave no email', async () => {
    const category = testCategory();
    const worker = await dispatchableWorker(category, null);
    const job = await testJob(category, null, { customerEmail: undefined });
    await jobsRepo.addOffers(job, { [worker.id]: new Date(Date.now() + 120_000).toISOString() }, new Date().toISOString());

    const res = await acceptAs(worker.id, job.id);

    expect(res.status).toBe(200);
    await expect(outboxRecord('pro-assigned', `${job.id}:0`)).rejects.toThrow('No outbox mail');
  });
});
