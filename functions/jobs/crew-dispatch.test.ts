import { describe, expect, it } from 'vitest';
import { handler as createRequest } from '../bookings/create-request';
import { handler as accept } from './accept-job';
import { handler as listOffers } from './list-job-offers';
import { handler as listRequests } from '../bookings/list-requests';
import { handler as trackRequest } from '../bookings/get-tracked-request';
import { jobsRepo, type JobItem } from './data/jobs';
import { offerNext, timerNames } from './dispatch';
import { issuedCustomer } from '../testing/customers';
import { testCrew, takenBy } from '../testing/crews';
import { dispatchableWorker, findSchedule, north, testCategory, testPlace } from '../testing/dispatch';
import { invoke, sampleEvent, withBody, withCookies, withPath } from '../testing/events';
import { withBearer, workerToken } from '../testing/workers';
import { connectionsRepo } from '../realtime/data/connections';
import { framesOf, openTestConnection } from '../testing/sockets';
import { rooms } from '../../shared/realtime';

const sample = sampleEvent('create-request');
const validBody = JSON.parse(sample.body!) as Record<string, unknown>;

async function requestCrew(body: Record<string, unknown>, key?: string) {
  const { customerId, cookie } = await issuedCustomer();
  const headers = key ? { ...sample.headers, 'idempotency-key': key } : sample.headers;
  const event = withCookies({ ...withBody(sample, body), headers }, [cookie]);
  return { customerId, cookie, event };
}

const acceptAs = async (jobId: string, workerId: string) =>
  invoke(accept, withBearer(withBody(withPath(sampleEvent('accept-job'), { jobId }), {}), await workerToken(workerId)));

const crewJobsOf = async (lead: JobItem) => jobsRepo.findMany(lead.crew!.jobIds).then((jobs) => lead.crew!.jobIds.map((id) => jobs.find((j) => j.id === id)!));

describe('a request for more than one pro', () => {
  it('makes one job per pro, offered to distinct pros, and lists only the request itself', async () => {
    // Prepare: three free plumbers near a place of this test's own
    const place = testPlace();
    const pros = await Promise.all([0.2, 0.4, 0.6].map((km) => dispatchableWorker('plumbing', north(place, km), { hourlyRate: 4000 })));
    const { customerId, cookie, event } = await requestCrew({ ...validBody, clientLatitude: place.lat, clientLongitude: place.lng, workerCount: 2 });

    // Act
    const res = await invoke(createRequest, event);

    // Assess: two jobs naming each other, the same crew estimate on both, offers to different pros
    expect(res.status).toBe(201);
    expect(res.body.request).toMatchObject({ workerCount: 2, crewLeadId: null });
    expect(res.body.request.crew.map((m: { index: number }) => m.index)).toEqual([1, 2]);
    const lead = (await jobsRepo.findById(res.body.request.id))!;
    const [first, second] = await crewJobsOf(lead);
    expect(first!.id).toBe(lead.id);
    for (const [i, job] of [first!, second!].entries()) {
      expect(job).toMatchObject({ workerCount: 2, crew: { leadId: lead.id, index: i + 1, size: 2, jobIds: [lead.id, second!.id] } });
      expect(job.estimate).toMatchObject({ workerCount: 2, hours: lead.estimate!.hours });
      expect(job.state).toBe('offered');
    }
    const offered = [Object.keys(first!.offers), Object.keys(second!.offers)];
    expect(offered[0]!.length).toBeGreaterThan(0);
    expect(offered[1]!.length).toBeGreaterThan(0);
    expect(offered[0]!.filter((id) => offered[1]!.includes(id))).toEqual([]);
    expect([...offered[0]!, ...offered[1]!].every((id) => pros.some((p) => p.id === id))).toBe(true);
    const listed = await invoke(listRequests, withCookies(sampleEvent('list-requests'), [cookie]));
    expect(listed.body.map((r: { id: string }) => r.id)).toEqual([lead.id]);
    expect((await jobsRepo.listForCustomer(customerId)).map((j) => j.id)).toEqual([lead.id]);
  });

  it('lets two pros accept a job each, each with its own arrival deadline and timer', async () => {
    // Prepare
    const place = testPlace();
    await Promise.all([0.2, 0.4, 0.6].map((km) => dispatchableWorker('plumbing', north(place, km))));
    const { event } = await requestCrew({ ...validBody, clientLatitude: place.lat, clientLongitude: place.lng, workerCount: 2 });
    const lead = (await jobsRepo.findById((await invoke(createRequest, event)).body.request.id))!;
    const [first, second] = await crewJobsOf(lead);

    // Act
    const a = await acceptAs(first!.id, Object.keys(first!.offers)[0]!);
    const b = await acceptAs(second!.id, Object.keys(second!.offers)[0]!);

    // Assess
    expect([a.status, b.status]).toEqual([200, 200]);
    for (const job of await crewJobsOf(lead)) {
      expect(job.state).toBe('accepted');
      expect(job.arriveBy).toEqual(expect.any(String));
      const timer = await findSchedule(timerNames.arrival(job.id, job.acceptedBy!));
      expect(JSON.parse(timer!.Target!.Input!)).toEqual({ jobId: job.id, workerId: job.acceptedBy });
    }
    const holders = (await crewJobsOf(lead)).map((job) => job.acceptedBy);
    const tracked = await invoke(trackRequest, withPath(sampleEvent('get-tracked-request'), { id: lead.id }));
    expect(tracked.body.crew.map((m: { worker: { id: string } }) => m.worker.id)).toEqual(holders);
    expect(new Set(holders).size).toBe(2);
  });

  it('never offers a pro a second job of the same crew, and a pro holding one cannot accept another', async () => {
    // Prepare: one pro nearby, a crew of two
    const [category, place] = [testCategory(), testPlace()];
    const pro = await dispatchableWorker(category, place);
    const [lead, member] = await testCrew(category, place, 2);
    await offerNext(lead!.id);
    await offerNext(member!.id);

    // Assess: the lead went to the pro, the member to nobody
    expect(Object.keys((await jobsRepo.findById(lead!.id))!.offers)).toEqual([pro.id]);
    expect((await jobsRepo.findById(member!.id))!.tried).toEqual([]);

    // Act: the pro takes the lead; the member is offered to them anyway (as the owner could)
    expect((await acceptAs(lead!.id, pro.id)).status).toBe(200);
    const current = (await jobsRepo.findById(member!.id))!;
    await jobsRepo.addOffers(current, { [pro.id]: new Date(Date.now() + 120_000).toISOString() }, new Date().toISOString());
    const second = await acceptAs(member!.id, pro.id);

    // Assess
    expect(second.status).toBe(409);
    expect((await jobsRepo.findById(member!.id))!.acceptedBy).toBeNull();
  });

  it('leaves out of a crew job the pro who holds one of its siblings', async () => {
    // Prepare: two pros; the first holds the lead without it ever being offered by dispatch's search
    const [category, place] = [testCategory(), testPlace()];
    const [holder, other] = await Promise.all([dispatchableWorker(category, place), dispatchableWorker(category, north(place, 1))]);
    const [lead, member] = await testCrew(category, place, 2);
    await takenBy(lead!, holder.id);
    await jobsRepo.dropOffers(lead!.id, [holder.id]);

    // Act
    await offerNext(member!.id);

    // Assess
    expect(Object.keys((await jobsRepo.findById(member!.id))!.offers)).toEqual([other.id]);
  });

  it('tells the pro offered a crew job how many pros were asked for and the hours expected of each', async () => {
    // Prepare
    const place = testPlace();
    const pro = await dispatchableWorker('plumbing', north(place, 0.2), { hourlyRate: 4000 });
    const { event } = await requestCrew({ ...validBody, clientLatitude: place.lat, clientLongitude: place.lng, workerCount: 3 });
    const lead = (await jobsRepo.findById((await invoke(createRequest, event)).body.request.id))!;

    // Act
    const res = await invoke(listOffers, withBearer(withPath(sampleEvent('list-job-offers'), { workerId: pro.id }), await workerToken(pro.id)));

    // Assess
    expect(res.status).toBe(200);
    const offer = res.body.find((o: { id: string }) => lead.crew!.jobIds.includes(o.id));
    expect(offer).toMatchObject({ workerCount: 3, estimatedHours: lead.estimate!.hours });
  });

  it('makes no second crew when the same submission is sent again', async () => {
    // Prepare
    const { customerId, event } = await requestCrew({ ...validBody, clientLatitude: 0, clientLongitude: 0, workerCount: 3 }, crypto.randomUUID());

    // Act
    const first = await invoke(createRequest, event);
    const again = await invoke(createRequest, event);

    // Assess
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.body.request.id).toBe(first.body.request.id);
    expect(await jobsRepo.listForCustomer(customerId)).toHaveLength(1);
    const lead = (await jobsRepo.findById(first.body.request.id))!;
    expect((await jobsRepo.findMany(lead.crew!.jobIds)).map((j) => j.customerId)).toEqual([customerId, customerId, customerId]);
  });

  it("tells the request's page when a member's pro moves", async () => {
    // Prepare: the customer follows the lead's room; a pro is offered the member
    const [category, place] = [testCategory(), testPlace()];
    const pro = await dispatchableWorker(category, place);
    const [lead, member] = await testCrew(category, place, 2);
    const socket = await openTestConnection();
    await connectionsRepo.open(socket, { customerId: lead!.customerId }, new Date().toISOString());
    await connectionsRepo.join(socket, rooms.job(lead!.id));
    await offerNext(member!.id);

    // Act
    expect((await acceptAs(member!.id, pro.id)).status).toBe(200);

    // Assess: the member's own event, as its own room has it
    const frames = await framesOf(socket);
    expect(frames).toContainEqual({ event: 'service_accepted', data: { requestId: member!.id } });
  });
});
