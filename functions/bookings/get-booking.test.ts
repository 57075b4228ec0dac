import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { JobState } from '../../shared/domain/booking-status';
import { keys } from '../../shared/entities';
import { handler as createBooking } from './create-booking';
import { handler } from './get-booking';
import { dynamo, tableName } from '../common/clients';
import { bookingsRepo } from './data/bookings';
import { jobsRepo } from '../jobs/data/jobs';
import { newId } from '../common/ids';
import { invoke, sampleEvent, withCookies, withPath } from '../testing/events';
import { ownerSessionCookie } from '../testing/owner';
import { townOf } from '../../shared/domain/town';
import { createTestWorker } from '../testing/workers';

const sample = sampleEvent('get-booking');

/** The worker's steps after accepting, in order. */
const afterAccepting = ['en_route', 'arrived', 'in_progress', 'completed'] as const;
type Step = 'accepted' | (typeof afterAccepting)[number];
const stamps = { en_route: 'enRouteAt', arrived: 'arrivedAt', in_progress: 'startedAt' } as const;

/**
 * A booking whose job a worker of our own has taken up to `upTo`, through the same repository
 * calls the worker's handlers make. The booking has no location, so dispatch may have offered it
 * to other tests' workers: our worker gets an offer of their own first, as dispatch would add it.
 */
async function bookingWithJobAt(upTo: Step) {
  const created = await invoke(createBooking, sampleEvent('create-booking'));
  const jobId = (await bookingsRepo.findById(created.body.id))!.jobId!;
  const worker = await createTestWorker({ categories: [created.body.category] });
  const now = Date.now();
  const iso = (ms: number) => new Date(ms).toISOString();
  expect(await jobsRepo.addOffers((await jobsRepo.findById(jobId))!, { [worker.id]: iso(now + 120_000) }, iso(now))).toBe(true);
  await jobsRepo.accept({ jobId, workerId: worker.id, hourlyRate: 4500, now: iso(now), arriveBy: iso(now + 45 * 60_000) });
  let from: JobState = 'accepted';
  for (const to of afterAccepting.slice(0, afterAccepting.indexOf(upTo as (typeof afterAccepting)[number]) + 1)) {
    if (to === 'completed') await jobsRepo.complete({ jobId, workerId: worker.id, now: iso(Date.now()), totalHours: 1 });
    else await jobsRepo.advance({ jobId, workerId: worker.id, from, to, stamp: stamps[to], now: iso(Date.now()) });
    from = to;
  }
  return { bookingId: created.body.id as string, jobId };
}

describe('GET /api/bookings/{id}', () => {
  it('gives someone holding only the id the status and the town, and nothing of the customer', async () => {
    // Prepare
    const created = await invoke(createBooking, sampleEvent('create-booking'));

    // Act
    const res = await invoke(handler, withPath(sample, { id: created.body.id }));

    // Assess
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['category', 'createdAt', 'dispatch', 'id', 'status', 'town'].sort());
    expect(res.body).toMatchObject({ status: 'new', town: townOf(created.body.address) });
  });

  it('gives the customer who booked, by their cookie, and the owner their details too', async () => {
    // Prepare
    const created = await invoke(createBooking, sampleEvent('create-booking'));
    const customer = created.cookies[0]!.split(';')[0]!;
    const own = ['address', 'category', 'createdAt', 'details', 'dispatch', 'id', 'name', 'phone', 'status', 'town'].sort();

    // Act
    const [theirs, owners] = await Promise.all([
      invoke(handler, withCookies(withPath(sample, { id: created.body.id }), [customer])),
      invoke(handler, withCookies(withPath(sample, { id: created.body.id }), [await ownerSessionCookie()])),
    ]);

    // Assess
    for (const res of [theirs, owners]) {
      expect(Object.keys(res.body).sort()).toEqual(own);
      expect(res.body).toMatchObject({ name: created.body.name, phone: created.body.phone, address: created.body.address });
    }
  });

  it.each<[Step, string]>([
    ['accepted', 'confirmed'],
    ['en_route', 'on_the_way'],
    ['arrived', 'on_the_way'],
    ['in_progress', 'on_the_way'],
    ['completed', 'completed'],
  ])('shows a booking whose job is %s as %s', async (state, status) => {
    // Prepare
    const { bookingId, jobId } = await bookingWithJobAt(state);

    // Act
    const res = await invoke(handler, withPath(sample, { id: bookingId }));

    // Assess
    expect((await jobsRepo.findById(jobId))?.state).toBe(state);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe(status);
    expect(res.body.dispatch).toBe(state === 'completed' ? 'done' : 'assigned');
  });

  it('shows a booking whose job was cancelled as cancelled', async () => {
    // Prepare: no handler cancels yet, so the job is moved by hand.
    const created = await invoke(createBooking, sampleEvent('create-booking'));
    const jobId = (await bookingsRepo.findById(created.body.id))!.jobId!;
    await dynamo.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.job(jobId),
        UpdateExpression: 'SET #state = :cancelled',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':cancelled': 'cancelled' },
      }),
    );

    // Act
    const res = await invoke(handler, withPath(sample, { id: created.body.id }));

    // Assess
    expect(res.body.status).toBe('cancelled');
  });

  it('shows new with no_worker_available once dispatch found no one', async () => {
    const created = await invoke(createBooking, sampleEvent('create-booking'));
    const job = (await jobsRepo.findById((await bookingsRepo.findById(created.body.id))!.jobId!))!;
    await jobsRepo.markNoWorker(job, new Date().toISOString());

    const res = await invoke(handler, withPath(sample, { id: created.body.id }));

    expect(res.body).toMatchObject({ status: 'new', dispatch: 'no_worker_available' });
  });

  it('answers 404 for a well-formed id that does not exist', async () => {
    const res = await invoke(handler, withPath(sample, { id: newId() }));

    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'NotFoundError', message: 'The booking ID you entered could not be found.' });
  });

  it.each(['short', 'A'.repeat(23), 'AAAAAAAAAAAAAAAAAAAA%2', '../../etc/passwd'])(
    'answers 404 for the malformed id %j without reading the table',
    async (id) => {
      const res = await invoke(handler, withPath(sample, { id }));

      expect(res.status).toBe(404);
    },
  );

  it('takes no request body', async () => {
    const res = await invoke(handler, { ...withPath(sample, { id: newId() }), body: '{"x":1}' });

    expect(res.status).toBe(400);
    expect(res.body.message).toBe('This request takes no body. Send it without one.');
  });
});
