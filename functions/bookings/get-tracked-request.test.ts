import { describe, expect, it } from 'vitest';
import { handler as createBooking } from './create-booking';
import { handler } from './get-tracked-request';
import { handler as verify } from '../payments/submit-client-verification';
import { issuedCustomer } from '../testing/customers';
import { dispatchableWorker, offeredJob, testCategory, testJob, testPlace } from '../testing/dispatch';
import { completedBy, testCrew, takenBy } from '../testing/crews';
import { asCustomer } from '../testing/money';
import { jobLocationsRepo } from '../jobs/data/job-locations';
import { jobsRepo } from '../jobs/data/jobs';
import { invoke, sampleEvent, withBody, withCookies, withPath } from '../testing/events';
import { handler as decline } from '../jobs/decline-job';
import { ownerSessionCookie } from '../testing/owner';
import { withBearer, workerToken } from '../testing/workers';
import { systemActor } from '../jobs/data/job-history';
import { writeTogether } from '../common/data/transact';

const sample = sampleEvent('get-tracked-request');
const track = (id: string, cookies: string[] = []) => invoke(handler, withCookies(withPath(sample, { id }), cookies));
const trackAsPro = async (id: string, workerId: string) => invoke(handler, withBearer(withPath(sample, { id }), await workerToken(workerId)));

/** What is the customer's own: none of it may reach anyone but the job's own people. */
const PERSONAL = ['name', 'email', 'phoneNumber', 'location', 'clientLatitude', 'clientLongitude', 'description'] as const;
const ADDRESS = '742 Evergreen Terrace, Springfield, Oregon';
const personalJob = (overrides = {}) => testJob(testCategory(), testPlace(), { customerName: 'Dana Whitfield', address: ADDRESS, ...overrides });

function expectNothingPersonal(body: Record<string, unknown>): void {
  for (const field of PERSONAL) expect(body).not.toHaveProperty(field);
  const text = JSON.stringify(body);
  for (const value of ['Dana', 'Whitfield', '555-010-0142', 'customer@example.com', 'Evergreen', 'kitchen tap']) expect(text).not.toContain(value);
}

describe('GET /api/track/{id}', () => {
  it('shows a request to its customer as theirs to act on', async () => {
    // Prepare: its customer is known to the server by the request they own.
    const job = await testJob(testCategory(), testPlace());

    // Act
    const res = await track(job.id, [`customer_id=${job.customerId}`]);

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: job.id, kind: 'request', number: job.id.slice(-8).toUpperCase(), viewer: 'customer', canCancel: true });
    expect(res.body).not.toHaveProperty('customerId');
  });

  it('says when the offers of a scheduled job open while they wait, and nothing once they have', async () => {
    // Prepare: one job starting in three days (held back from dispatch), one in two hours (offered at once), one as soon as possible.
    const HOUR = 3_600_000;
    const later = new Date(Date.now() + 72 * HOUR).toISOString();
    const [waiting, soon, now] = await Promise.all([
      testJob(testCategory(), testPlace(), { requestedTime: later }),
      testJob(testCategory(), testPlace(), { requestedTime: new Date(Date.now() + 2 * HOUR).toISOString() }),
      testJob(testCategory(), testPlace()),
    ]);

    // Act
    const [a, b, c] = await Promise.all([track(waiting.id), track(soon.id), track(now.id)]);

    // Assess
    expect(a.body).toMatchObject({ requestedTime: later, offersOpenAt: new Date(Date.parse(later) - 24 * HOUR).toISOString() });
    expect([b.body.offersOpenAt, c.body.offersOpenAt]).toEqual([null, null]);
  });

  it('lets anyone holding the link follow it, but not as its customer', async () => {
    // Prepare
    const job = await testJob(testCategory(), testPlace());
    const anotherCustomer = await issuedCustomer();

    // Act
    const [anonymous, other] = await Promise.all([track(job.id), track(job.id, [anotherCustomer.cookie])]);

    // Assess
    expect([anonymous.status, other.status]).toEqual([200, 200]);
    expect([anonymous.body.viewer, other.body.viewer]).toEqual(['link', 'link']);
  });

  it("gives someone holding only the link the progress, the town and the pro's first name, nothing of the customer's own", async () => {
    // Prepare: a pro holds the job and is on the way
    const [category, place] = [testCategory(), testPlace()];
    const job = await testJob(category, place, { customerName: 'Dana Whitfield', address: ADDRESS });
    const pro = await dispatchableWorker(category, place, { fullName: 'Riley Quinn Chen', phone: '+1 415 555 0100' });
    await takenBy(job, pro.id);

    // Act
    const res = await track(job.id);

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ viewer: 'link', town: 'Springfield', jobState: 'accepted', status: 'In Progress', worker: { id: pro.id, name: 'Riley', photoUrl: null } });
    expect(res.body.worker).not.toHaveProperty('phone');
    expect(res.body.etaMinutes).toEqual(expect.any(Number));
    expectNothingPersonal(res.body);
  });

  it("gives the job's customer, by their cookie, all of their own details", async () => {
    // Prepare
    const job = await personalJob();

    // Act
    const res = await track(job.id, [`customer_id=${job.customerId}`]);

    // Assess
    expect(res.body).toMatchObject({
      viewer: 'customer',
      name: 'Dana Whitfield',
      email: 'customer@example.com',
      phoneNumber: '555-010-0142',
      location: ADDRESS,
      clientLatitude: job.latitude,
      clientLongitude: job.longitude,
      description: job.description,
      town: 'Springfield',
    });
  });

  it('leaves out an email and a position the customer never gave, rather than sending them empty', async () => {
    // Prepare
    const job = await testJob(testCategory(), null, { customerEmail: undefined });

    // Act
    const res = await track(job.id, [`customer_id=${job.customerId}`]);

    // Assess
    expect(res.body).toMatchObject({ viewer: 'customer', name: 'Test Customer', town: null });
    for (const field of ['email', 'clientLatitude', 'clientLongitude']) expect(res.body).not.toHaveProperty(field);
  });

  it("gives the owner all of the customer's details, and the pro's phone", async () => {
    // Prepare
    const [category, place] = [testCategory(), testPlace()];
    const job = await personalJob();
    const pro = await dispatchableWorker(category, place, { phone: '+1 415 555 0100' });
    await takenBy(job, pro.id);

    // Act
    const res = await track(job.id, [await ownerSessionCookie()]);

    // Assess
    expect(res.body).toMatchObject({ viewer: 'owner', name: 'Dana Whitfield', phoneNumber: '555-010-0142', location: ADDRESS, worker: { phone: '+1 415 555 0100' } });
  });

  it("gives the pro holding the job the customer's contact details, and no longer once it went back to dispatch", async () => {
    // Prepare
    const [category, place] = [testCategory(), testPlace()];
    const job = await personalJob();
    const pro = await dispatchableWorker(category, place);
    await takenBy(job, pro.id);

    // Act
    const holding = await trackAsPro(job.id, pro.id);
    await writeTogether(jobsRepo.releaseActions({ jobId: job.id, workerId: pro.id, actor: systemActor, detail: 'test', now: new Date().toISOString() }));
    const lost = await trackAsPro(job.id, pro.id);

    // Assess
    expect(holding.body).toMatchObject({ viewer: 'pro', name: 'Dana Whitfield', phoneNumber: '555-010-0142', email: 'customer@example.com', location: ADDRESS });
    expect(lost.body).toMatchObject({ viewer: 'link', jobState: 'booked', worker: null });
    expectNothingPersonal(lost.body);
  });

  it('gives a pro offered the job, before and after declining it, nothing of the customer', async () => {
    // Prepare
    const category = testCategory();
    const pro = await dispatchableWorker(category, testPlace());
    const job = await offeredJob(category, [pro.id]);

    // Act
    const offered = await trackAsPro(job.id, pro.id);
    const passed = await invoke(decline, withBearer(withPath(withBody(sampleEvent('decline-job'), { workerId: pro.id }), { jobId: job.id }), await workerToken(pro.id)));
    const declined = await trackAsPro(job.id, pro.id);

    // Assess
    expect(passed.status).toBe(204);
    for (const res of [offered, declined]) {
      expect(res.body.viewer).toBe('link');
      expectNothingPersonal(res.body);
    }
  });

  it("finds a booking's job by the booking's own id, the one /book sends people to", async () => {
    // Prepare
    const booked = await invoke(createBooking, sampleEvent('create-booking'));
    const customer = booked.cookies[0]!.split(';')[0]!;

    // Act
    const res = await track(booked.body.id, [customer]);

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ kind: 'booking', viewer: 'customer', status: 'Pending' });
    expect(res.body.id).not.toBe(booked.body.id);
  });

  it('answers an unknown or malformed id with Booking Not Found', async () => {
    // Act
    const [unknown, malformed] = await Promise.all([track('AAAAAAAAAAAAAAAAAAAAAA'), track('abc')]);

    // Assess
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('The booking ID you entered could not be found.');
    expect(malformed.status).toBe(404);
  });
});

describe('GET /api/track/{id}: a crew', () => {
  it("shows every pro's place on the request, in order, with each holder and their latest position", async () => {
    // Prepare: a crew of three; pro 2 took their job and shared a fix on it, pro 3 is still sought
    const [category, place] = [testCategory(), testPlace()];
    const [lead, second, third] = await testCrew(category, place, 3);
    const pro = await dispatchableWorker(category, place);
    await takenBy(second!, pro.id);
    const fix = { lat: place.lat + 0.01, lng: place.lng, accuracy: 5, at: new Date().toISOString() };
    await jobLocationsRepo.keepLatest({ jobId: second!.id, workerId: pro.id, ...fix, minIntervalMs: 0 });

    // Act
    const res = await track(lead!.id, [`customer_id=${lead!.customerId}`]);

    // Assess: the lead's own fields stay its own job's
    expect(res.status).toBe(200);
    // An as-soon-as-possible job a pro holds cannot be cancelled, so neither can the crew.
    expect(res.body).toMatchObject({ id: lead!.id, workerCount: 3, crewLeadId: null, worker: null, jobState: 'booked', canCancel: false });
    expect(res.body.crew.map((m: { jobId: string; index: number }) => [m.jobId, m.index])).toEqual([[lead!.id, 1], [second!.id, 2], [third!.id, 3]]);
    expect(res.body.crew[1]).toMatchObject({ jobState: 'accepted', worker: { id: pro.id }, position: { lat: fix.lat, lng: fix.lng, at: fix.at } });
    expect(res.body.crew[1].etaMinutes).toEqual(expect.any(Number));
    expect(res.body.crew[2]).toMatchObject({ worker: null, position: null });
  });

  it("shows a member's own page, to its customer and to a link holder, naming the request it belongs to", async () => {
    // Prepare
    const [lead, member] = await testCrew(testCategory(), testPlace(), 2);

    // Act
    const own = await track(member!.id, [`customer_id=${member!.customerId}`]);
    const link = await track(member!.id);

    // Assess
    for (const res of [own, link]) {
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: member!.id, workerCount: 2, crew: null, crewLeadId: lead!.id, canCancel: false, canRetry: false });
    }
    expect([own.body.viewer, link.body.viewer]).toEqual(['customer', 'link']);
  });

  it("shows someone holding only the lead's link each pro by first name, with no phone and no position", async () => {
    // Prepare: pro 2 took their job and shared a fix on it
    const [category, place] = [testCategory(), testPlace()];
    const [lead, second] = await testCrew(category, place, 2);
    const pro = await dispatchableWorker(category, place, { fullName: 'Sam Ortega', phone: '+1 415 555 0199' });
    await takenBy(second!, pro.id);
    await jobLocationsRepo.keepLatest({ jobId: second!.id, workerId: pro.id, lat: place.lat, lng: place.lng, accuracy: 5, at: new Date().toISOString(), minIntervalMs: 0 });

    // Act
    const res = await track(lead!.id);

    // Assess
    expect(res.body.crew[1]).toMatchObject({ worker: { id: pro.id, name: 'Sam', photoUrl: null }, position: null });
    expect(res.body.crew[1].worker).not.toHaveProperty('phone');
  });

  it('lets the customer try again while any pro of the crew ended with nobody, and cancel only while every pro may be', async () => {
    // Prepare: pro 1 holds the lead and is on the way; nobody took the member
    const [category, place] = [testCategory(), testPlace()];
    const [lead, member] = await testCrew(category, place, 2);
    const pro = await dispatchableWorker(category, place);
    await takenBy(lead!, pro.id);
    await jobsRepo.advance({ jobId: lead!.id, workerId: pro.id, from: 'accepted', to: 'en_route', stamp: 'enRouteAt', now: new Date().toISOString() });
    await jobsRepo.markNoWorker((await jobsRepo.findById(member!.id))!, new Date().toISOString());

    // Act
    const res = await track(lead!.id, [`customer_id=${lead!.customerId}`]);

    // Assess
    expect(res.body).toMatchObject({ canRetry: true, canCancel: false, jobState: 'en_route' });
    expect(res.body.reofferUntil).toEqual(expect.any(String));
  });

  it('speaks for the request through the first pro still on it once the lead, which nobody took, was stopped', async () => {
    // Prepare: nobody took the lead; pro 2 completed and the customer approved the crew's work, which stopped the lead's search
    const [category, place] = [testCategory(), testPlace()];
    const [lead, member] = await testCrew(category, place, 2);
    const pro = await dispatchableWorker(category, place);
    await completedBy(member!, pro.id);
    const approval = withBody(sampleEvent('submit-client-verification'), { serviceRequestId: lead!.id, verificationType: 'work_verification', verificationStatus: 'approved' });
    expect((await invoke(verify, await asCustomer(approval, lead!.customerId))).status).toBe(200);

    // Act
    const res = await track(lead!.id, [`customer_id=${lead!.customerId}`]);

    // Assess
    expect((await jobsRepo.findById(lead!.id))!.state).toBe('cancelled');
    expect(res.body).toMatchObject({ jobState: 'verified', status: expect.not.stringMatching(/cancel/i) });
    expect(res.body.crew.map((m: { jobState: string }) => m.jobState)).toEqual(['cancelled', 'verified']);
  });
});
