import { describe, expect, it } from 'vitest';
import { handler as approveWorker } from '../applications/approve-worker';
import { handler } from './get-analytics';
import { handler as listProFigures } from '../workers/list-pro-figures';
import { jobsRepo } from '../jobs/data/jobs';
import { reviewsRepo } from '../workers/data/reviews';
import { areaOf } from './data/stats';
import { workersRepo } from '../workers/data/workers';
import { acceptedJob, clockOn, paidInvoice, privateDay, sentJob, settleCounts, verifiedJob, withQuery } from '../testing/analytics';
import { dispatchableWorker, offeredJob, testCategory, testPlace } from '../testing/dispatch';
import { asOwner, pendingApplication } from '../testing/applications';
import { invoke, sampleEvent } from '../testing/events';
import { handler as rejectWorker } from '../applications/reject-worker';

/** The figures as the owner reads them once the stream has counted every change so far. */
async function counted(query: Record<string, string> = {}) {
  await settleCounts();
  return invoke(handler, withQuery(await asOwner('get-analytics'), query));
}
const analytics = async (query: Record<string, string> = {}) => (await counted(query)).body;

/**
 * Six jobs on a day of their own, walked through the real repositories, and every figure of that
 * day worked out by hand:
 * - J1 accepted 3 min after it was sent, arrived on time, paid (share sent to the pro);
 * - J2 accepted after 7 min, arrived late, paid with the pro's share held (no payouts set up);
 * - J3 accepted after 12 min, not arrived yet; J4 found no pro; J5 accepted after 20 min, arrived
 *   on time, verified, not paid; J6 only sent.
 * Each paid invoice: 2 h at $50 = $100.00, fee 10% = $10.00, the pro's share $90.00.
 */
async function handMadeDay() {
  const day = privateDay();
  const at = clockOn(day);
  const category = testCategory();
  const place = testPlace();
  const pro = () => dispatchableWorker(category, place, { hourlyRate: 5000 });
  const [w1, w2, w3, w5] = await Promise.all([pro(), pro(), pro(), pro()]);
  const [j1, j2, j3, j4, j5, j6] = await Promise.all([1, 2, 3, 4, 5, 6].map(() => sentJob(category, place, at)));

  const a1 = await acceptedJob(j1!, w1, at, 1, 3);
  await paidInvoice(await verifiedJob(a1, w1, at, 30), w1, at, 200, 'transferred');
  const a2 = await acceptedJob(j2!, w2, at, 1, 7);
  await paidInvoice(await verifiedJob(a2, w2, at, 60), w2, at, 210, 'held');
  await acceptedJob(j3!, w3, at, 2, 12);
  expect(await jobsRepo.markNoWorker(j4!, at(5))).toBe(true);
  const a5 = await acceptedJob(j5!, w5, at, 2, 20);
  await verifiedJob(a5, w5, at, 40);
  return { day, category, area: areaOf(j6!), workers: { w1, w2, w3, w5 } };
}

describe('GET /api/admin/analytics', () => {
  it('reports real counts, and a rating only from real reviews', async () => {
    const res = await invoke(handler, withQuery(await asOwner('get-analytics'), {}));

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      applications: { pending: expect.any(Number), approved: expect.any(Number), rejected: expect.any(Number) },
      companyApplications: { pending: expect.any(Number), approved: expect.any(Number), rejected: expect.any(Number) },
      workers: { active: expect.any(Number), pendingReview: expect.any(Number), suspended: expect.any(Number), terminated: expect.any(Number) },
      jobs: { total: expect.any(Number) },
      averageRating: expect.toBeOneOf([null, expect.any(Number)]),
      reviewCount: expect.any(Number),
      workersOnProbation: expect.any(Number),
    });
    if (res.body.reviewCount === 0) expect(res.body.averageRating).toBeNull();
    // Without a range: the last 30 days, by day.
    expect(res.body.money.periods).toHaveLength(30);
  });

  it('reports every figure of a hand-made day exactly: money, funnel, median time to accept, on-time rate, no-pro share', async () => {
    // Prepare
    const { day, category, area } = await handMadeDay();

    // Act
    const res = await counted({ from: day, to: day, by: 'day' });

    // Assess
    expect(res.status).toBe(200);
    const figures = res.body;
    expect(figures.range).toEqual({ from: day, to: day, by: 'day' });
    const money = { grossCents: 20000, platformFeeCents: 2000, proPayoutCents: 18000, heldCents: 9000, releasedCents: 0, payments: 2 };
    expect(figures.money.periods).toEqual([{ period: day, ...money }]);
    expect(figures.money.totals).toEqual(money);
    expect(figures.funnel).toEqual({ sent: 6, offered: 4, accepted: 4, completed: 3, verified: 3, paid: 2 });
    // Accepts after 3, 7, 12 and 20 minutes: the 2nd of 4 is the median.
    expect(figures.timeToAccept).toEqual({ medianMinutes: 7, accepted: 4 });
    expect(figures.arrivals).toEqual({ onTime: 2, late: 1, onTimeRate: 0.6667 });
    expect(figures.noPro.filter((row: { category: string }) => row.category === category)).toEqual([
      { category, area, sent: 6, noPro: 1, share: 0.1667 },
    ]);
  });

  it('groups the money by week and by month, and shows days without activity as zeros', async () => {
    // Prepare
    const { day } = await handMadeDay();
    const next = new Date(Date.parse(`${day}T00:00:00Z`) + 2 * 86_400_000).toISOString().slice(0, 10);

    // Act
    const byDay = await analytics({ from: day, to: next, by: 'day' });
    const byMonth = await analytics({ from: day, to: day, by: 'month' });
    const byWeek = await analytics({ from: day, to: day, by: 'week' });

    // Assess
    expect(byDay.money.periods.map((p: { period: string; grossCents: number }) => p.grossCents)).toEqual([20000, 0, 0]);
    expect(byMonth.money.periods).toEqual([expect.objectContaining({ period: day.slice(0, 7), grossCents: 20000, payments: 2 })]);
    const monday = new Date(Date.parse(`${day}T00:00:00Z`) - ((new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7) * 86_400_000).toISOString().slice(0, 10);
    expect(byWeek.money.periods).toEqual([expect.objectContaining({ period: monday, grossCents: 20000 })]);
  });

  it('keeps each pro\'s earnings on their profile, listed a page at a time with rating and strikes', async () => {
    // Prepare
    const { workers } = await handMadeDay();

    // Act
    const w1 = await workersRepo.findById(workers.w1.id);
    const w3 = await workersRepo.findById(workers.w3.id);
    const page = await invoke(listProFigures, withQuery(await asOwner('list-pro-figures'), { limit: '5' }));

    // Assess
    expect(w1).toMatchObject({ earnedCents: 9000, paidJobs: 1 });
    expect(w3?.earnedCents).toBeUndefined();
    expect(page.status).toBe(200);
    expect(page.body.items.length).toBeLessThanOrEqual(5);
  });

  it('says so when nothing happened: zeros, and no median or rate made up', async () => {
    // Prepare
    const day = clockOn('1970-06-01')(0).slice(0, 10);

    // Act
    const empty = await analytics({ from: day, to: day });

    // Assess
    expect(empty.funnel).toEqual({ sent: 0, offered: 0, accepted: 0, completed: 0, verified: 0, paid: 0 });
    expect(empty.timeToAccept).toEqual({ medianMinutes: null, accepted: 0 });
    expect(empty.arrivals.onTimeRate).toBeNull();
  });

  it('refuses a range the wrong way round or longer than 400 days, saying what to change', async () => {
    const backwards = await invoke(handler, withQuery(await asOwner('get-analytics'), { from: '2026-02-01', to: '2026-01-01' }));
    const tooLong = await invoke(handler, withQuery(await asOwner('get-analytics'), { from: '2024-01-01', to: '2026-01-01' }));
    const notADay = await invoke(handler, withQuery(await asOwner('get-analytics'), { from: '2026-02-30' }));

    expect(backwards.status).toBe(400);
    expect(backwards.body.message).toMatch(/from must be on or before to/);
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.message).toMatch(/at most 400 days/);
    expect(notADay.status).toBe(400);
  });

  it('counts applications by status and workers as they are reviewed', async () => {
    // Prepare (other test files write to the same table at the same time: counts only grow here)
    const before = await analytics();
    const [a, b, c] = await Promise.all([pendingApplication(), pendingApplication(), pendingApplication()]);
    await invoke(approveWorker, await asOwner('approve-worker', { id: a.id }));
    await invoke(rejectWorker, await asOwner('reject-worker', { id: b.id }));

    // Act
    const after = await analytics();

    // Assess
    expect(c.id).toBeTruthy();
    expect(after.applications.pending).toBeGreaterThanOrEqual(1);
    expect(after.applications.approved).toBeGreaterThanOrEqual(before.applications.approved + 1);
    expect(after.applications.rejected).toBeGreaterThanOrEqual(before.applications.rejected + 1);
    expect(after.workers.active).toBeGreaterThanOrEqual(before.workers.active + 1);
  });

  it('counts every review in the average and the review count, one decimal', async () => {
    // Prepare (other test files review at the same time: the count only grows here)
    const before = await analytics();
    const category = testCategory();
    const worker = await dispatchableWorker(category, null);
    for (const rating of [5, 4, 4]) {
      const job = await offeredJob(category, [worker.id]);
      const now = () => new Date().toISOString();
      await jobsRepo.accept({ jobId: job.id, workerId: worker.id, hourlyRate: worker.hourlyRate, now: now(), arriveBy: new Date(Date.now() + 60_000).toISOString() });
      await jobsRepo.advance({ jobId: job.id, workerId: worker.id, from: 'accepted', to: 'arrived', stamp: 'arrivedAt', now: now() });
      await jobsRepo.advance({ jobId: job.id, workerId: worker.id, from: 'arrived', to: 'in_progress', stamp: 'startedAt', now: now() });
      await jobsRepo.complete({ jobId: job.id, workerId: worker.id, now: now(), totalHours: 1 });
      await reviewsRepo.record({ jobId: job.id, customerId: job.customerId, rating, now: now() });
    }

    // Act
    const after = await analytics();

    // Assess
    expect(after.reviewCount).toBeGreaterThanOrEqual(before.reviewCount + 3);
    expect(after.averageRating).toBeGreaterThanOrEqual(1);
    expect(after.averageRating).toBeLessThanOrEqual(5);
    expect(Math.round(after.averageRating * 10) / 10).toBe(after.averageRating);
  });

  it('answers 401 without the owner session', async () => {
    expect((await invoke(handler, sampleEvent('get-analytics'))).status).toBe(401);
  });
});
