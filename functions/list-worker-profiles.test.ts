import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { LatLng } from '../shared/domain/geo';
import { keys } from '../shared/table';
import { handler } from './list-worker-profiles';
import { dynamo, tableName } from './lib/clients';
import { jobsRepo } from './lib/data/jobs';
import { reviewsRepo } from './lib/data/reviews';
import { dispatchableWorker, north, offeredJob, testPlace } from './lib/testing/dispatch';
import { invoke, sampleEvent } from './lib/testing/events';

const sample = sampleEvent('list-worker-profiles');

/**
 * The route takes only the six real categories, which other test files share. Each test puts its
 * workers at a random place and asks from there: its own come first, anyone else's are far away
 * (or unlocated) and follow. 'electrical' is used by no other customer-side test.
 */
const category = 'electrical';

function withQuery(query: Record<string, string>) {
  return { ...sample, queryStringParameters: query, rawQueryString: new URLSearchParams(query).toString() };
}

const listFrom = (at: LatLng | null, extra: Record<string, string> = {}) =>
  invoke(handler, withQuery({ category, ...(at ? { lat: String(at.lat), lng: String(at.lng) } : {}), ...extra }));

const idsOf = (body: { id: string }[]) => body.map((w) => w.id);

describe('GET /api/worker-profiles', () => {
  it('lists only workers on call, clocked in, active and verified, of the category asked for', async () => {
    // Prepare
    const place = testPlace();
    const near = north(place, 0.5);
    const listed = await dispatchableWorker(category, north(place, 1));
    const unlisted = await Promise.all([
      dispatchableWorker(category, near, { isAvailable: false }),
      dispatchableWorker(category, near, { isClockedIn: false }),
      dispatchableWorker(category, near, { isVerified: false }),
      dispatchableWorker(category, near, { status: 'terminated' }),
      dispatchableWorker('painting', near),
    ]);
    // An index entry left behind by a change that has not synced yet: the profile decides.
    const clockedOutSinceIndexed = await dispatchableWorker(category, near);
    await dynamo.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.worker(clockedOutSinceIndexed.id),
        UpdateExpression: 'SET isClockedIn = :false',
        ExpressionAttributeValues: { ':false': false },
      }),
    );

    // Act
    const res = await listFrom(place);

    // Assess
    expect(res.status).toBe(200);
    expect(res.body[0].id).toBe(listed.id);
    for (const w of [...unlisted, clockedOutSinceIndexed]) expect(idsOf(res.body)).not.toContain(w.id);
  });

  it('shows no email, phone or home address, and no rating before the first review', async () => {
    // Prepare
    const place = testPlace();
    const worker = await dispatchableWorker(category, north(place, 1), {
      fullName: 'Ada Volta',
      hourlyRate: 6100,
      yearsExp: 7,
      workerType: 'contract',
    });

    // Act
    const res = await listFrom(place);

    // Assess
    const listing = res.body.find((w: { id: string }) => w.id === worker.id);
    expect(Object.keys(listing).sort()).toEqual(
      [
        'id',
        'workerId',
        'fullName',
        'photoUrl',
        'bio',
        'yearsExperience',
        'specialties',
        'serviceAreas',
        'hourlyRate',
        'isVerified',
        'isAvailable',
        'workerType',
        'rating',
        'reviewCount',
        'distanceKm',
        'etaMinutes',
      ].sort(),
    );
    expect(listing).toMatchObject({
      workerId: worker.id,
      fullName: 'Ada Volta',
      photoUrl: null,
      yearsExperience: 7,
      specialties: ['Electrical'],
      hourlyRate: 6100,
      isVerified: 'true',
      isAvailable: 'true',
      workerType: 'contract',
      rating: null,
      reviewCount: 0,
    });
    expect(JSON.stringify(res.body)).not.toMatch(/@example\.com|555-010-0199|Elm Street/);
  });

  it('lists the nearest first, with distance and ETA from the place asked about', async () => {
    // Prepare
    const place = testPlace();
    const three = await dispatchableWorker(category, north(place, 3));
    const closest = await dispatchableWorker(category, north(place, 0.4));
    const one = await dispatchableWorker(category, north(place, 1));

    // Act
    const res = await listFrom(place);

    // Assess
    const mine = res.body.slice(0, 3);
    expect(idsOf(mine)).toEqual([closest.id, one.id, three.id]);
    expect(mine.map((w: { distanceKm: number }) => w.distanceKm)).toEqual([0.4, 1, 3]);
    const etas = mine.map((w: { etaMinutes: number }) => w.etaMinutes);
    for (const eta of etas) expect(eta).toEqual(expect.any(Number));
    expect([...etas].sort((a, b) => a - b)).toEqual(etas);
    expect(etas[0]).toBeLessThan(etas[2]);
  });

  it('gives no distance or ETA when the caller does not say where they are', async () => {
    const worker = await dispatchableWorker(category, testPlace());

    const res = await listFrom(null);

    expect(res.status).toBe(200);
    const listing = res.body.find((w: { id: string }) => w.id === worker.id);
    expect(listing).toMatchObject({ distanceKm: null, etaMinutes: null });
  });

  it('lists a worker busy on a job as not available right now', async () => {
    const place = testPlace();
    const busy = await dispatchableWorker(category, north(place, 1), { activeJobId: 'SomeOtherJobId00000000' });

    const res = await listFrom(place);

    expect(res.body[0]).toMatchObject({ id: busy.id, isAvailable: 'false' });
  });

  it("gives the worker's photo as a short-lived link when they have one", async () => {
    const place = testPlace();
    const worker = await dispatchableWorker(category, north(place, 1), { profilePhotoKey: 'workers/test/photo.jpg' });

    const res = await listFrom(place);

    expect(res.body[0].id).toBe(worker.id);
    expect(res.body[0].photoUrl).toMatch(/workers\/test\/photo\.jpg\?.*X-Amz-Expires=600/);
  });

  it("shows the worker's average rating and review count from the reviews of their jobs", async () => {
    // Prepare: two completed jobs, rated 5 and 4.
    const place = testPlace();
    const worker = await dispatchableWorker(category, north(place, 1));
    for (const rating of [5, 4]) {
      const job = await offeredJob(category, [worker.id]);
      const now = () => new Date().toISOString();
      await jobsRepo.accept({ jobId: job.id, workerId: worker.id, hourlyRate: worker.hourlyRate, now: now(), arriveBy: new Date(Date.now() + 60_000).toISOString() });
      await jobsRepo.advance({ jobId: job.id, workerId: worker.id, from: 'accepted', to: 'arrived', stamp: 'arrivedAt', now: now() });
      await jobsRepo.advance({ jobId: job.id, workerId: worker.id, from: 'arrived', to: 'in_progress', stamp: 'startedAt', now: now() });
      await jobsRepo.complete({ jobId: job.id, workerId: worker.id, now: now(), totalHours: 1 });
      await reviewsRepo.record({ jobId: job.id, customerId: job.customerId, rating, now: now() });
    }

    // Act
    const res = await listFrom(place);

    // Assess
    expect(res.body[0]).toMatchObject({ id: worker.id, rating: 4.5, reviewCount: 2 });
  });

  it('refuses a category that is not one of the six with 400', async () => {
    const res = await invoke(handler, withQuery({ category: 'astrology' }));

    expect(res.status).toBe(400);
    expect(res.body.message).toBe('category must be one of: plumbing, electrical, construction, painting, handyman, cleaning.');
  });

  it.each([
    ['lat without lng', { lat: '40.7' }],
    ['lng without lat', { lng: '-74' }],
    ['lat=abc', { lat: 'abc', lng: '-74' }],
    ['lat=100', { lat: '100', lng: '-74' }],
    ['an empty lat', { lat: '', lng: '-74' }],
  ])('refuses %s with 400', async (_case, query) => {
    const res = await invoke(handler, withQuery({ category, ...query }));

    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'BadRequestError',
      message: 'lat and lng must be given together, as a latitude (-90 to 90) and a longitude (-180 to 180).',
    });
  });
});
