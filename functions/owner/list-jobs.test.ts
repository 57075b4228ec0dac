import { describe, expect, it } from 'vitest';
import { jobsRepo } from '../jobs/data/jobs';
import { asOwner } from '../testing/applications';
import { dispatchableWorker, offeredJob, testCategory, testJob, testPlace } from '../testing/dispatch';
import { invoke, sampleEvent } from '../testing/events';
import { everyRow, noProJob } from '../testing/owner-jobs';
import { handler } from './list-jobs';

const rowsOf = (query: Record<string, string>) => everyRow(handler, 'list-jobs', query);

describe('GET /api/admin/jobs/all', () => {
  it('answers a page of the table, newest first, with the pro, the offers, the times and the money state', async () => {
    // Prepare: two jobs of a trade of the test's own; the second is accepted by a named pro
    const category = testCategory();
    const older = await testJob(category, testPlace());
    const pro = await dispatchableWorker(category, null, { fullName: 'Robin Pipes' });
    const job = await offeredJob(category, [pro.id]);
    const now = new Date().toISOString();
    const arriveBy = new Date(Date.now() + 45 * 60_000).toISOString();
    await jobsRepo.accept({ jobId: job.id, workerId: pro.id, hourlyRate: 5200, now, arriveBy });

    // Act
    const { items } = await rowsOf({ category });

    // Assess
    expect(items.map((row) => row.id)).toEqual([job.id, older.id]);
    expect(items[0]).toMatchObject({
      number: job.id.slice(-8).toUpperCase(),
      category,
      customerName: 'Test Customer',
      hourlyRate: 5200,
      state: 'accepted',
      assignedPro: { id: pro.id, name: 'Robin Pipes' },
      offersMade: 1,
      acceptedAt: now,
      invoiceId: null,
      paymentStatus: null,
      attention: null,
    });
    expect(items[1]).toMatchObject({ state: 'booked', assignedPro: null, offersMade: 0, hourlyRate: null });
  });

  it('filters by state (no pro found), customer and text without minding case', async () => {
    // Prepare
    const category = testCategory();
    const unfilled = await noProJob(category);
    const other = await testJob(category, testPlace(), { customerName: 'Avery Quill', address: '9 Larch Lane', description: 'Squeaky hinge' });

    // Act
    const noPro = await rowsOf({ category, state: 'no_pro' });
    const byCustomer = await rowsOf({ category, customer: 'avery' });
    const byText = await rowsOf({ category, search: 'larch' });
    const byNumber = await rowsOf({ category, search: unfilled.id.slice(-8).toLowerCase() });

    // Assess
    expect(noPro.items.map((row) => row.id)).toEqual([unfilled.id]);
    expect(noPro.items[0]).toMatchObject({ state: 'booked', dispatch: 'no_worker_available', attention: 'no_pro' });
    expect(byCustomer.items.map((row) => row.id)).toEqual([other.id]);
    expect(byText.items.map((row) => row.id)).toEqual([other.id]);
    expect(byNumber.items.map((row) => row.id)).toEqual([unfilled.id]);
  });

  it('narrows by the created-date range and by the assigned pro', async () => {
    // Prepare
    const category = testCategory();
    const past = await testJob(category, testPlace(), { createdAt: '2020-02-03T10:00:00.000Z' });
    const pro = await dispatchableWorker(category, null);
    const held = await offeredJob(category, [pro.id]);
    const now = new Date().toISOString();
    await jobsRepo.accept({ jobId: held.id, workerId: pro.id, hourlyRate: 5000, now, arriveBy: now });

    // Act
    const onThatDay = await rowsOf({ category, from: '2020-02-03', to: '2020-02-03' });
    const before = await rowsOf({ category, to: '2020-02-02' });
    const ofThePro = await rowsOf({ category, workerId: pro.id });

    // Assess
    expect(onThatDay.items.map((row) => row.id)).toEqual([past.id]);
    expect(before.items).toEqual([]);
    expect(ofThePro.items.map((row) => row.id)).toEqual([held.id]);
  });

  it('answers a page at a time, each with the cursor of the next', async () => {
    // Prepare
    const category = testCategory();
    const jobs = [await testJob(category, testPlace()), await testJob(category, testPlace()), await testJob(category, testPlace())];

    // Act
    const { items } = await everyRow(handler, 'list-jobs', { category, limit: '1' });

    // Assess
    expect(items.map((row) => row.id)).toEqual(jobs.map((j) => j.id).reverse());
  });

  it('refuses a malformed date and a made-up cursor with 400', async () => {
    // Prepare
    const event = await asOwner('list-jobs');

    // Act
    const badDate = await invoke(handler, { ...event, queryStringParameters: { from: '03/02/2020' } });
    const badCursor = await invoke(handler, { ...event, queryStringParameters: { cursor: Buffer.from('{"pk":"X"}').toString('base64url') } });

    // Assess
    expect(badDate.status).toBe(400);
    expect(badDate.body.message).toMatch(/YYYY-MM-DD/);
    expect(badCursor.status).toBe(400);
  });

  it('answers 401 without the owner session', async () => {
    expect((await invoke(handler, sampleEvent('list-jobs'))).status).toBe(401);
  });
});
