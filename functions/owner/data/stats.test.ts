import { describe, expect, it } from 'vitest';
import { counter } from '../../../shared/entities';
import { acceptedJob, clockOn, paidInvoice, privateDay, sentJob, settleCounts, verifiedJob } from '../../testing/analytics';
import { dispatchableWorker, testCategory, testPlace } from '../../testing/dispatch';
import { invoicesRepo } from '../../payments/data/invoices';
import { jobsRepo } from '../../jobs/data/jobs';
import { stats } from './stats';

/** The counters of one day (a day no other test writes to), 0 for those never moved. */
async function dayCounters(day: string) {
  await settleCounts();
  const [item] = await stats.days(day, day);
  return (name: string) => (typeof item?.[name] === 'number' ? (item[name] as number) : 0);
}

describe('the owner\'s counters under concurrent changes', () => {
  it('20 pros accepting one job at once add exactly one accept and one time-to-accept', async () => {
    // Prepare
    const day = privateDay();
    const at = clockOn(day);
    const category = testCategory();
    const workers = await Promise.all(Array.from({ length: 20 }, () => dispatchableWorker(category, null)));
    const job = await sentJob(category, null, at);
    await jobsRepo.addOffers(job, Object.fromEntries(workers.map((w) => [w.id, at(60)])), at(1));

    // Act
    const results = await Promise.allSettled(
      workers.map((w) => jobsRepo.accept({ jobId: job.id, workerId: w.id, hourlyRate: w.hourlyRate, now: at(4), arriveBy: at(49), sentAt: job.createdAt })),
    );

    // Assess
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const count = await dayCounters(day);
    expect(count(counter.funnel('accepted'))).toBe(1);
    expect(count(counter.acceptMinutes(4))).toBe(1);
    expect(count(counter.funnel('offered'))).toBe(1);
    expect(count(counter.funnel('sent'))).toBe(1);
  });

  it('a payment delivered twice at once counts its money once, and its release once', async () => {
    // Prepare
    const day = privateDay();
    const at = clockOn(day);
    const category = testCategory();
    const worker = await dispatchableWorker(category, null, { hourlyRate: 5000 });
    const job = await verifiedJob(await acceptedJob(await sentJob(category, null, at), worker, at, 1, 2), worker, at, 10);
    const held = await paidInvoice(job, worker, at, 200, 'held');
    const input = { sessionId: held.stripeSessionId!, paymentIntentId: null, now: at(201), payoutStatus: 'held' as const, payoutAccountId: null };

    // Act: the same payment again, twice at once; then the held share released twice at once
    const again = await Promise.all([invoicesRepo.markPaid(held.id, input), invoicesRepo.markPaid(held.id, input)]);
    const released = await Promise.all([1, 2].map(() => invoicesRepo.markTransferred(held.id, { transferId: 'tr_1', accountId: 'acct_1', now: at(300) })));

    // Assess
    expect(again).toEqual([undefined, undefined]);
    expect(released.filter(Boolean)).toHaveLength(1);
    const count = await dayCounters(day);
    expect(count(counter.payments)).toBe(1);
    expect(count(counter.grossCents)).toBe(10000);
    expect(count(counter.heldCents)).toBe(9000);
    expect(count(counter.releasedCents)).toBe(9000);
    expect(count(counter.funnel('paid'))).toBe(1);
  });

  it('a no-pro timer fired twice counts one job with no pro, and a later round of the same job adds none', async () => {
    // Prepare
    const day = privateDay();
    const at = clockOn(day);
    const category = testCategory();
    const place = testPlace();
    const job = await sentJob(category, place, at);

    // Act
    const fired = await Promise.all([jobsRepo.markNoWorker(job, at(5)), jobsRepo.markNoWorker(job, at(5))]);
    const marked = (await jobsRepo.findById(job.id))!;
    await jobsRepo.reopen(marked, at(6));
    const again = await jobsRepo.markNoWorker((await jobsRepo.findById(job.id))!, at(7));

    // Assess
    expect(fired.filter(Boolean)).toHaveLength(1);
    expect(again).toBe(true);
    const count = await dayCounters(day);
    const areaCounters = Object.keys(await stats.days(day, day).then(([item]) => item ?? {})).filter((name) => name.startsWith(`nopro:${category}:`));
    expect(areaCounters).toHaveLength(1);
    expect(count(areaCounters[0]!)).toBe(1);
  });
});
