import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { LatLng } from '../../shared/domain/geo';
import { keys } from '../../shared/entities';
import { handler } from './set-job-state';
import { handler as accept } from './accept-job';
import { handler as enforceArrival } from '../arrival/enforce-arrival';
import { handler as shareLocation } from './set-worker-location';
import { dynamo, tableName } from '../common/clients';
import { jobLocationsRepo } from './data/job-locations';
import { jobsRepo } from './data/jobs';
import { notificationsRepo } from '../realtime/data/notifications';
import { workersRepo } from '../workers/data/workers';
import { env } from '../common/env';
import { timerNames } from './dispatch';
import { dispatchableWorker, findSchedule, north, offeredJob, testCategory, testPlace } from '../testing/dispatch';
import { invoke, sampleEvent, withBody, withPath } from '../testing/events';
import { withBearer, workerToken } from '../testing/workers';

const sample = sampleEvent('set-job-state');

/** A job accepted through the accept call itself, at `place` (null: a typed address with no position). */
async function acceptedJob(place: LatLng | null = testPlace(), proAt: LatLng | null = null) {
  const category = testCategory();
  const worker = await dispatchableWorker(category, proAt);
  const job = await offeredJob(category, [worker.id], 120, place);
  const token = await workerToken(worker.id);
  await invoke(accept, withBearer(withPath(withBody(sampleEvent('accept-job'), { workerId: worker.id }), { jobId: job.id }), token));
  return { worker, job, token, place };
}

const move = (jobId: string, token: string, body: unknown) => invoke(handler, withBearer(withPath(withBody(sample, body), { id: jobId }), token));

/** A device's fix at `at`, as precise as a phone outdoors. */
const fixAt = (at: LatLng, accuracy = 10) => ({ lat: at.lat, lng: at.lng, accuracy });

/** The job as it will be `ms` from now: its deadline and any claim are that much further in the past. */
async function timePasses(jobId: string, ms: number) {
  const job = (await jobsRepo.findById(jobId))!;
  const earlier = (iso: string) => new Date(Date.parse(iso) - ms).toISOString();
  await dynamo.send(
    new UpdateCommand({
      TableName: tableName,
      Key: keys.job(jobId),
      UpdateExpression: `SET arriveBy = :by, acceptedAt = :acc${job.arrivalClaim ? ', arrivalClaim.claimedAt = :claimed' : ''}`,
      ExpressionAttributeValues: {
        ':by': earlier(job.arriveBy!),
        ':acc': earlier(job.acceptedAt!),
        ...(job.arrivalClaim ? { ':claimed': earlier(job.arrivalClaim.claimedAt) } : {}),
      },
    }),
  );
}

describe('POST /api/jobs/{id}/state', () => {
  it('walks the worker through en route, arrived (with a fix at the address) and started, stamping each time', async () => {
    // Prepare
    const { worker, job, token, place } = await acceptedJob();

    // Act
    const enRoute = await move(job.id, token, { state: 'en_route', workerId: worker.id });
    const arrived = await move(job.id, token, { state: 'arrived', position: fixAt(place!) });
    const started = await move(job.id, token, { state: 'in_progress' });

    // Assess
    expect([enRoute.status, arrived.status, started.status]).toEqual([200, 200, 200]);
    expect(enRoute.body.nextStates).toEqual(['arrived']);
    expect(started.body).toMatchObject({ state: 'in_progress', nextStates: ['completed'] });
    const stored = await jobsRepo.findById(job.id);
    expect(stored?.enRouteAt && stored.arrivedAt && stored.startedAt).toBeTruthy();
  });

  it('lets a worker go straight from accepted to arrived with a fix at the address, stores the fix as evidence and deletes the arrival timer', async () => {
    // Prepare
    const { job, token, worker, place } = await acceptedJob();
    expect(await findSchedule(timerNames.arrival(job.id, worker.id))).toBeDefined();
    const position = fixAt(north(place!, 0.05), 12);

    // Act
    const res = await move(job.id, token, { state: 'arrived', position });

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ state: 'arrived', arrivalClaim: null });
    expect(await findSchedule(timerNames.arrival(job.id, worker.id))).toBeUndefined();
    const stored = (await jobsRepo.findById(job.id))!;
    expect(stored.arrivalEvidence).toEqual({ method: 'location', lat: position.lat, lng: position.lng, accuracy: 12, distanceM: 50, at: expect.any(String) });
    expect(stored.arrivalClaim).toBeUndefined();
  });

  it('does not count Mark Arrived pressed right after accepting, far from the address: the customer is asked and the 45-minute rule still strikes', async () => {
    // Prepare: the pro accepts 5 km away.
    const { job, token, worker, place } = await acceptedJob();

    // Act: they press Mark Arrived at once, where they are, and then never arrive.
    const res = await move(job.id, token, { state: 'arrived', position: fixAt(north(place!, 5)) });
    await timePasses(job.id, env.ARRIVAL_GRACE_SECONDS * 1000 + 60_000);
    await enforceArrival({ jobId: job.id, workerId: worker.id });

    // Assess: not arrived; told why; the timer took the job and gave the strike.
    expect(res.status).toBe(202);
    expect(res.body.state).toBe('accepted');
    expect(res.body.arrivalClaim).toMatchObject({ reason: 'too-far', distanceM: 5000 });
    expect(res.body.arrivalClaim.message).toMatch(/^You are 3\.1 mi from the address \(arrived means within 490 ft\)\. We asked the customer to confirm you have arrived/);
    const after = (await jobsRepo.findById(job.id))!;
    expect(after).toMatchObject({ acceptedBy: null, reassignedCount: 1, arrivedAt: null });
    expect(after.arrivalClaim).toBeUndefined();
    expect((await workersRepo.findById(worker.id))?.strikes).toBe(1);
  });

  it('asks the customer "Has your pro arrived?" when the job has no position to check against', async () => {
    // Prepare: a booking's typed address, no coordinates.
    const { job, token } = await acceptedJob(null);

    // Act
    const res = await move(job.id, token, { state: 'arrived', position: fixAt(testPlace()) });

    // Assess
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ state: 'accepted', arrivalClaim: { reason: 'no-job-position', distanceM: null, claimedAt: expect.any(String) } });
    expect(res.body.arrivalClaim.message).toContain('We asked the customer to confirm you have arrived');
    const stored = (await jobsRepo.findById(job.id))!;
    expect(stored.state).toBe('accepted');
    expect(stored.arrivalClaim).toMatchObject({ reason: 'no-job-position', claimedAt: res.body.arrivalClaim.claimedAt });
    const told = await notificationsRepo.latest('customer', job.customerId);
    expect(told.filter((n) => n.title === 'Has your pro arrived?')).toHaveLength(1);
  });

  it('takes no fix as proof when there is none, or it is too old, or too vague', async () => {
    // Prepare: three jobs; the pro's only fix is missing, three minutes old, or 400 m wide.
    const none = await acceptedJob();
    const stale = await acceptedJob();
    await jobLocationsRepo.keepLatest({ jobId: stale.job.id, workerId: stale.worker.id, ...fixAt(stale.place!), at: new Date(Date.now() - 180_000).toISOString(), minIntervalMs: 0 });
    const vague = await acceptedJob();

    // Act
    const answers = await Promise.all([
      move(none.job.id, none.token, { state: 'arrived' }),
      move(stale.job.id, stale.token, { state: 'arrived' }),
      move(vague.job.id, vague.token, { state: 'arrived', position: fixAt(vague.place!, 400) }),
    ]);

    // Assess
    for (const res of answers) {
      expect(res.status).toBe(202);
      expect(res.body).toMatchObject({ state: 'accepted', arrivalClaim: { reason: 'no-fix', distanceM: null } });
    }
  });

  it("counts the pro's last shared position when it is recent and at the address", async () => {
    // Prepare: the pro shares their position at the door (the dashboard's sharing), then presses without a fix.
    const { job, token, place } = await acceptedJob();
    await invoke(shareLocation, withBearer(withBody(sampleEvent('set-worker-location'), { latitude: place!.lat, longitude: place!.lng, accuracy: 8 }), token));

    // Act
    const res = await move(job.id, token, { state: 'arrived' });

    // Assess
    expect(res.status).toBe(200);
    expect(res.body.state).toBe('arrived');
    expect((await jobsRepo.findById(job.id))?.arrivalEvidence).toMatchObject({ method: 'location', distanceM: 0, accuracy: 8 });
  });

  it('keeps the first claim and asks the customer once when the pro presses again without a proof, then arrives once a fix proves it', async () => {
    // Prepare
    const { job, token, place } = await acceptedJob();
    const first = await move(job.id, token, { state: 'arrived', position: fixAt(north(place!, 1)) });

    // Act
    const again = await move(job.id, token, { state: 'arrived', position: fixAt(north(place!, 0.4)) });
    const proven = await move(job.id, token, { state: 'arrived', position: fixAt(place!) });

    // Assess
    expect([first.status, again.status, proven.status]).toEqual([202, 202, 200]);
    expect(again.body.arrivalClaim).toMatchObject({ claimedAt: first.body.arrivalClaim.claimedAt, reason: 'too-far', distanceM: 400 });
    const told = await notificationsRepo.latest('customer', job.customerId);
    expect(told.filter((n) => n.title === 'Has your pro arrived?')).toHaveLength(1);
    const stored = (await jobsRepo.findById(job.id))!;
    expect(stored.state).toBe('arrived');
    expect(stored.arrivalClaim).toBeUndefined();
  });

  it('refuses a position with numbers out of bounds with 400, naming the field', async () => {
    const { job, token } = await acceptedJob();

    const res = await move(job.id, token, { state: 'arrived', position: { lat: 91, lng: 0, accuracy: 5 } });

    expect(res.status).toBe(400);
    expect(res.body.fields['position.lat']).toBe('position.lat must be between -90 and 90');
    expect((await jobsRepo.findById(job.id))?.arrivalClaim).toBeUndefined();
  });

  it('refuses a skipped step with 409 naming the allowed next states, and changes nothing', async () => {
    const { job, token } = await acceptedJob();

    const res = await move(job.id, token, { state: 'in_progress' });

    expect(res.status).toBe(409);
    expect(res.body.message).toBe('A job that is accepted can move only to: en_route, arrived.');
    expect((await jobsRepo.findById(job.id))?.state).toBe('accepted');
  });

  it('refuses a backward step with 409', async () => {
    const { job, token, place } = await acceptedJob();
    await move(job.id, token, { state: 'arrived', position: fixAt(place!) });

    const res = await move(job.id, token, { state: 'en_route' });

    expect(res.status).toBe(409);
    expect(res.body.message).toBe('A job that is arrived can move only to: in_progress.');
  });

  it('answers 404 to a worker who does not hold the job, and 403 to a body naming another worker', async () => {
    const { job, worker } = await acceptedJob();
    const other = await dispatchableWorker(testCategory(), null);
    const otherToken = await workerToken(other.id);
    const ownToken = await workerToken(worker.id);

    const stranger = await move(job.id, otherToken, { state: 'en_route' });
    const spoofed = await move(job.id, ownToken, { state: 'en_route', workerId: other.id });

    expect(stranger.status).toBe(404);
    expect(spoofed.status).toBe(403);
    expect((await jobsRepo.findById(job.id))?.state).toBe('accepted');
  });

  it('refuses completing through this call (it has its own) with 400', async () => {
    const { job, token } = await acceptedJob();

    const res = await move(job.id, token, { state: 'completed' });

    expect(res.status).toBe(400);
    expect(res.body.fields.state).toBe('state must be en_route, arrived or in_progress');
  });
});
