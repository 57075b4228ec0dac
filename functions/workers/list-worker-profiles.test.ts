import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import type { LatLng } from '../../shared/domain/geo';
import { keys } from '../../shared/entities';
import { handler, LISTINGS_PER_WINDOW } from './list-worker-profiles';
import { dynamo, tableName } from '../common/clients';
import { jobsRepo } from '../jobs/data/jobs';
import { reviewsRepo } from './data/reviews';
import { serviceAddressesRepo } from '../bookings/data/service-addresses';
import { issuedCustomer } from '../testing/customers';
import { dispatchableWorker, north, offeredJob, testPlace } from '../testing/dispatch';
import { fromAddress, invoke, sampleEvent } from '../testing/events';

const sample = sampleEvent('list-worker-profiles');

/**
 * The route takes only the six real categories, which other test files share. Each test saves a
 * customer's service address at a random place and puts its workers near it: its own come first,
 * anyone else's are far away (or unlocated) and follow. 'electrical' is used by no other
 * customer-side test. Every call comes from a network address of its own test, so the listing's
 * allowance per address is never another test's.
 */
const category = 'electrical';

const networkAddress = () => `2001:db8:${Math.floor(Math.random() * 0xffff).toString(16)}::${Math.floor(Math.random() * 0xffff).toString(16)}`;

function listing(query: Record<string, string>, options: { cookie?: string; from?: string } = {}): APIGatewayProxyEventV2 {
  return fromAddress(
    {
      ...sample,
      queryStringParameters: query,
      rawQueryString: new URLSearchParams(query).toString(),
      ...(options.cookie ? { cookies: [options.cookie] } : {}),
    },
    options.from ?? networkAddress(),
  );
}

/** A customer whose saved service address is at `at`: their cookie. */
async function customerAt(at: LatLng): Promise<string> {
  const { customerId, cookie } = await issuedCustomer();
  await serviceAddressesRepo.save(customerId, '1 Test Street', at);
  return cookie;
}

const listFor = (cookie: string | undefined, extra: Record<string, string> = {}, from?: string) =>
  invoke(handler, listing({ category, ...extra }, { cookie, from }));

const idsOf = (body: { id: string }[]) => body.map((w) => w.id);
const find = (body: { id: string }[], id: string) => body.find((w) => w.id === id) as Record<string, unknown> | undefined;

describe('GET /api/worker-profiles', () => {
  it('gives an anonymous caller sweeping lat/lng toward a pro no distance finer than a band, and nothing for a pro on a job', async () => {
    // Prepare: a pro on call and a pro on a job, somewhere the caller wants to find
    const hidden = testPlace();
    const free = await dispatchableWorker(category, hidden);
    const busy = await dispatchableWorker(category, north(hidden, 0.3), { activeJobId: 'SomeOtherJobId00000000' });
    const from = networkAddress();

    // Act: the attack, asking from points stepping toward the pros
    const answers: { id: string }[][] = [];
    for (const km of [10, 5, 2, 1, 0.5, 0.2, 0.1, 0.05, 0.02, 0.01]) {
      const at = north(hidden, km);
      const res = await invoke(handler, listing({ category, lat: String(at.lat), lng: String(at.lng) }, { from }));
      expect(res.status).toBe(200);
      answers.push(res.body);
    }

    // Assess: no figure that could depend on the point named; the answer for each pro is the same
    // wherever the caller says they are, and a pro on a job comes with no distance at all.
    for (const body of answers) {
      for (const pro of [free, busy]) {
        const shown = find(body, pro.id);
        expect(shown, 'the pro is listed').toBeDefined();
        expect(shown).not.toHaveProperty('distanceKm');
        expect(shown).not.toHaveProperty('etaMinutes');
        expect(shown!.distanceBand).toBeNull();
      }
      expect(find(body, busy.id)!.isAvailable).toBe('false');
    }
    const forFree = new Set(answers.map((body) => JSON.stringify({ ...find(body, free.id), photoUrl: null })));
    expect(forFree.size).toBe(1);
  });

  it('measures each available pro as a band from the saved service address, whatever lat/lng the query names, nearest band first', async () => {
    // Prepare: pros 1 and 12 km north of the saved address (under 5, and 5 to 10 miles)
    const place = testPlace();
    const cookie = await customerAt(place);
    const twelve = await dispatchableWorker(category, north(place, 12));
    const one = await dispatchableWorker(category, north(place, 1));
    const elsewhere = testPlace();

    // Act
    const res = await listFor(cookie);
    const pointed = await listFor(cookie, { lat: String(elsewhere.lat), lng: String(elsewhere.lng) });

    // Assess
    expect(res.status).toBe(200);
    expect(idsOf(res.body).slice(0, 2)).toEqual([one.id, twelve.id]);
    expect(find(res.body, one.id)!.distanceBand).toEqual({ id: 'under-5', from: 0, to: 5, unit: 'mi' });
    expect(find(res.body, twelve.id)!.distanceBand).toEqual({ id: '5-10', from: 5, to: 10, unit: 'mi' });
    expect(pointed.body.map((w: Record<string, unknown>) => [w.id, w.distanceBand])).toEqual(res.body.map((w: Record<string, unknown>) => [w.id, w.distanceBand]));
  });

  it('gives a pro on a job no band even for a customer with a saved address, and lists them after the measured pros', async () => {
    // Prepare
    const place = testPlace();
    const cookie = await customerAt(place);
    const busy = await dispatchableWorker(category, north(place, 0.2), { activeJobId: 'SomeOtherJobId00000000' });
    const free = await dispatchableWorker(category, north(place, 3));

    // Act
    const res = await listFor(cookie);

    // Assess
    expect(find(res.body, busy.id)).toMatchObject({ isAvailable: 'false', distanceBand: null });
    expect(idsOf(res.body).indexOf(free.id)).toBeLessThan(idsOf(res.body).indexOf(busy.id));
  });

  it('gives no band to a visitor without a saved address, nor for a pro who shared no position', async () => {
    // Prepare
    const place = testPlace();
    const cookie = await customerAt(place);
    const unlocated = await dispatchableWorker(category, null);
    const located = await dispatchableWorker(category, north(place, 1));

    // Act
    const anonymous = await invoke(handler, listing({}, {}));
    const customer = await listFor(cookie);

    // Assess
    expect(anonymous.status).toBe(200);
    for (const w of anonymous.body as { distanceBand: unknown }[]) expect(w.distanceBand).toBeNull();
    expect(find(customer.body, located.id)!.distanceBand).toMatchObject({ id: 'under-5' });
    expect(find(customer.body, unlocated.id)).toMatchObject({ distanceBand: null });
  });

  it('keeps only the pros whose whole band lies within maxKm', async () => {
    // Prepare
    const place = testPlace();
    const cookie = await customerAt(place);
    const near = await dispatchableWorker(category, north(place, 1));
    const farther = await dispatchableWorker(category, north(place, 12));

    // Act: 5 and 10 miles, as the dashboard sends them
    const withinFive = await listFor(cookie, { maxKm: '8.047' });
    const withinTen = await listFor(cookie, { maxKm: '16.093' });

    // Assess
    expect(idsOf(withinFive.body)).toContain(near.id);
    expect(idsOf(withinFive.body)).not.toContain(farther.id);
    expect(idsOf(withinTen.body)).toEqual(expect.arrayContaining([near.id, farther.id]));
    for (const w of withinTen.body as { distanceBand: { id: string } }[]) expect(['under-5', '5-10']).toContain(w.distanceBand.id);
  });

  it('refuses maxKm without a saved service address, saying what to do', async () => {
    const res = await invoke(handler, listing({ category, maxKm: '8', lat: '40.7', lng: '-74' }));

    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Save your service address first: distances are measured from it.');
  });

  it('lists only workers on call, clocked in, active and verified, of the category asked for', async () => {
    // Prepare
    const place = testPlace();
    const cookie = await customerAt(place);
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
    const res = await listFor(cookie);

    // Assess
    expect(res.status).toBe(200);
    expect(res.body[0].id).toBe(listed.id);
    for (const w of [...unlisted, clockedOutSinceIndexed]) expect(idsOf(res.body)).not.toContain(w.id);
  });

  it('shows no email, phone, home address or position, and no rating before the first review', async () => {
    // Prepare
    const place = testPlace();
    const cookie = await customerAt(place);
    const worker = await dispatchableWorker(category, north(place, 1), {
      fullName: 'Ada Volta',
      hourlyRate: 6100,
      yearsExp: 7,
      workerType: 'contract',
    });

    // Act
    const res = await listFor(cookie);

    // Assess
    const shown = find(res.body, worker.id)!;
    expect(Object.keys(shown).sort()).toEqual(
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
        'distanceBand',
      ].sort(),
    );
    expect(shown).toMatchObject({
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
    expect(JSON.stringify(shown)).not.toContain(String(worker.location!.lat));
  });

  it("gives the worker's photo as a short-lived link when they have one", async () => {
    const place = testPlace();
    const cookie = await customerAt(place);
    const worker = await dispatchableWorker(category, north(place, 1), { profilePhotoKey: 'workers/test/photo.jpg' });

    const res = await listFor(cookie);

    expect(res.body[0].id).toBe(worker.id);
    expect(res.body[0].photoUrl).toMatch(/workers\/test\/photo\.jpg\?.*X-Amz-Expires=600/);
  });

  it("shows the worker's average rating and review count from the reviews of their jobs", async () => {
    // Prepare: two completed jobs, rated 5 and 4.
    const place = testPlace();
    const cookie = await customerAt(place);
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
    const res = await listFor(cookie);

    // Assess
    expect(res.body[0]).toMatchObject({ id: worker.id, rating: 4.5, reviewCount: 2 });
  });

  it('refuses a category that is not one of the six with 400', async () => {
    const res = await invoke(handler, listing({ category: 'astrology' }));

    expect(res.status).toBe(400);
    expect(res.body.message).toBe('category must be one of: plumbing, electrical, construction, painting, handyman, cleaning.');
  });

  it('counts every call from one network address, refused ones too, and past the allowance answers 429 with Retry-After and a sentence', async () => {
    // Prepare: one address spends its allowance (quickly: calls refused for their category count too)
    const place = testPlace();
    const cookie = await customerAt(place);
    const from = networkAddress();
    for (let i = 0; i < LISTINGS_PER_WINDOW; i++) expect((await listFor(cookie, { category: 'astrology' }, from)).status).toBe(400);

    // Act
    const refused = await listFor(cookie, {}, from);
    const other = await listFor(cookie, {}, networkAddress());

    // Assess
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.body.message).toMatch(/^Too many searches from your network in a short time\. Try again in \d+ minutes?\.$/);
    expect(other.status).toBe(200);
  });
});
