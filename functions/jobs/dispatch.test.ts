import { describe, expect, it } from 'vitest';
import { jobsRepo } from './data/jobs';
import { notificationsRepo } from '../realtime/data/notifications';
import { offerNext, restartSearch, timerNames } from './dispatch';
import { handler as expireOffer } from './expire-offer';
import { handler as sendMail } from '../mail/send-mail';
import { mailsTo, outboxRecord } from '../testing/mail';
import { env } from '../common/env';
import { dispatchableWorker, findSchedule, north, testCategory, testJob, testPlace } from '../testing/dispatch';

describe('offerNext', () => {
  it('offers the job to the 3 nearest free workers of its category, each with an expiry and its timer', async () => {
    // Prepare
    const [category, place] = [testCategory(), testPlace()];
    const workers = [];
    for (const km of [4, 0.5, 9, 2, 1]) workers.push(await dispatchableWorker(category, north(place, km)));
    const job = await testJob(category, place);

    // Act
    const offered = await offerNext(job.id);

    // Assess
    const nearest = [workers[1]!, workers[4]!, workers[3]!].map((w) => w.id);
    expect(offered?.state).toBe('offered');
    expect(Object.keys(offered!.offers).sort()).toEqual([...nearest].sort());
    expect(offered!.tried).toEqual(nearest);
    const expiresAt = Date.parse(offered!.offers[nearest[0]!]!);
    expect(expiresAt - Date.now()).toBeGreaterThan((env.OFFER_SECONDS - 5) * 1000);
    for (const id of nearest) {
      const schedule = await findSchedule(timerNames.offer(job.id, id));
      expect(schedule?.Target?.Arn).toMatch(/:function:expire-offer$/);
      expect(JSON.parse(schedule!.Target!.Input!)).toEqual({ jobId: job.id, workerId: id });
    }
  });

  it('never offers workers who are off call, clocked out, unverified, terminated, busy or of another trade', async () => {
    const [category, place] = [testCategory(), testPlace()];
    const near = north(place, 0.2);
    const excluded = await Promise.all([
      dispatchableWorker(category, near, { isAvailable: false }),
      dispatchableWorker(category, near, { isClockedIn: false }),
      dispatchableWorker(category, near, { isVerified: false }),
      dispatchableWorker(category, near, { status: 'terminated' }),
      dispatchableWorker(category, near, { activeJobId: 'SomeOtherJobId00000000' }),
      dispatchableWorker(testCategory(), near),
    ]);
    // 15 km: inside the widest ring wherever the job sits in its cell (a ~40 × 20 km cell reaches 19.5 km north at worst).
    const eligible = await dispatchableWorker(category, north(place, 15));
    const job = await testJob(category, place);

    const offered = await offerNext(job.id);

    expect(Object.keys(offered!.offers)).toEqual([eligible.id]);
    for (const w of excluded) expect(offered!.tried).not.toContain(w.id);
  });

  it('offers workers who shared no location after every located one, and offers jobs without a location to any', async () => {
    const [category, place] = [testCategory(), testPlace()];
    const located = await dispatchableWorker(category, north(place, 3));
    const unlocated = await dispatchableWorker(category, null);
    const somewhere = await testJob(category, place);
    const nowhere = await testJob(category, null);

    const first = await offerNext(somewhere.id);
    const second = await offerNext(nowhere.id);

    expect(first!.tried).toEqual([located.id, unlocated.id]);
    expect(Object.keys(second!.offers).sort()).toEqual([located.id, unlocated.id].sort());
  });

  it('tells the customer no worker is available when nobody can be offered the job', async () => {
    const job = await testJob(testCategory(), testPlace());

    const after = await offerNext(job.id);

    expect(after).toMatchObject({ state: 'booked', dispatch: 'no_worker_available', tried: [] });
  });

  it('offers a hire to the hired worker alone first, even with nearer workers free', async () => {
    const [category, place] = [testCategory(), testPlace()];
    await dispatchableWorker(category, north(place, 0.1));
    const hired = await dispatchableWorker(category, north(place, 15));
    const job = await testJob(category, place, { kind: 'hire', preferredWorkerId: hired.id });

    const offered = await offerNext(job.id);

    expect(Object.keys(offered!.offers)).toEqual([hired.id]);
  });

  it('is idempotent: calling it again with offers outstanding offers nobody new', async () => {
    const [category, place] = [testCategory(), testPlace()];
    for (const km of [1, 2, 3, 4]) await dispatchableWorker(category, north(place, km));
    const job = await testJob(category, place);
    const first = await offerNext(job.id);

    const [a, b] = await Promise.all([offerNext(job.id), offerNext(job.id)]);

    expect(a!.tried).toEqual(first!.tried);
    expect(b!.tried).toEqual(first!.tried);
    expect((await jobsRepo.findById(job.id))!.tried).toHaveLength(3);
  });

  it('passes over a farther free worker when three nearer ones are free', async () => {
    const [category, place] = [testCategory(), testPlace()];
    const near = await Promise.all([0.1, 0.2, 0.3].map((km) => dispatchableWorker(category, north(place, km))));
    await dispatchableWorker(category, north(place, 30));
    const job = await testJob(category, place);

    const offered = await offerNext(job.id);

    expect(offered!.tried.sort()).toEqual(near.map((w) => w.id).sort());
  });

  it("tells each pro offered the job its town, never the customer's street", async () => {
    // Prepare
    const [category, place] = [testCategory(), testPlace()];
    const pro = await dispatchableWorker(category, place);
    const job = await testJob(category, place, { service: 'Leaky tap', address: '742 Evergreen Terrace, Springfield' });

    // Act
    await offerNext(job.id);

    // Assess
    const told = (await notificationsRepo.latest('worker', pro.id)).filter((n) => n.jobId === job.id);
    expect(told.map((n) => n.message)).toEqual(['Leaky tap in Springfield. Accept it before the offer expires.']);
  });
});

describe('a search that ends with nobody: the mail', () => {
  it('mails the customer once per search that found nobody, with Try again on the tracking page, even when the timer fires twice', async () => {
    // Prepare: the only pro of the trade let their offer expire
    const email = `nopro-${crypto.randomUUID()}@example.com`;
    const [category, place] = [testCategory(), testPlace()];
    const pro = await dispatchableWorker(category, north(place, 1));
    const job = await testJob(category, place, { customerEmail: email });
    await jobsRepo.addOffers(job, { [pro.id]: new Date(Date.now() - 1000).toISOString() }, new Date().toISOString());

    // Act: the expiry timer fires twice, and the mail's record is delivered twice
    await Promise.all([expireOffer({ jobId: job.id, workerId: pro.id }), expireOffer({ jobId: job.id, workerId: pro.id })]);
    const record = await outboxRecord('no-pro-found', `${job.id}:0`);
    await sendMail({ Records: [record] });
    await sendMail({ Records: [record] });

    // Assess
    expect(await jobsRepo.findById(job.id)).toMatchObject({ dispatch: 'no_worker_available' });
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('No pro was free for your Plumbing request');
    expect(mails[0]!.text).toContain(`Try again: http://localhost:3000/track#id=${job.id}`);
  });

  it('mails again when a search started afresh also ends with nobody: a new round', async () => {
    // Prepare: a search that found nobody (no pro of the trade at all)
    const email = `nopro-${crypto.randomUUID()}@example.com`;
    const job = await testJob(testCategory(), testPlace(), { customerEmail: email });
    await offerNext(job.id);

    // Act: Try again, and nobody again
    await restartSearch((await jobsRepo.findById(job.id))!, 'Searching again.');
    for (const subjectId of [`${job.id}:0`, `${job.id}:1`]) await sendMail({ Records: [await outboxRecord('no-pro-found', subjectId)] });

    // Assess
    expect(await mailsTo(email)).toHaveLength(2);
  });
});
