import { describe, expect, it } from 'vitest';
import { paths } from '../../web/src/lib/paths';
import { mailRepo } from '../mail/data/mail';
import { acceptedJob, clockOn, paidInvoice, privateDay, sentJob, settleCounts, verifiedJob } from '../testing/analytics';
import { pendingApplication } from '../testing/applications';
import { dispatchableWorker, testCategory, testPlace } from '../testing/dispatch';
import { sampleEvent } from '../testing/events';
import { mailsTo, outboxRecord } from '../testing/mail';
import { ownerMailbox } from '../testing/owner-mail';
import { handler, summaryInput } from './send-daily-summary';
import { handler as sendMail } from '../mail/send-mail';

/**
 * Three jobs on a day of their own, walked through the real repositories: J1 accepted, done and
 * paid (2 h at $50 = $100.00, the platform's 10% = $10.00), J2 accepted and done but not paid, J3
 * only sent. So that day: 3 sent, 2 completed, 1 paid, $100.00 gross, $10.00 in fees.
 */
async function handMadeDay() {
  const day = privateDay();
  const at = clockOn(day);
  const category = testCategory();
  const place = testPlace();
  const [w1, w2] = await Promise.all([1, 2].map(() => dispatchableWorker(category, place, { hourlyRate: 5000 })));
  const [j1, j2] = await Promise.all([1, 2, 3].map(() => sentJob(category, place, at)));
  const a1 = await acceptedJob(j1!, w1!, at, 1, 3);
  await paidInvoice(await verifiedJob(a1, w1!, at, 30), w1!, at, 200, 'transferred');
  const a2 = await acceptedJob(j2!, w2!, at, 1, 7);
  await verifiedJob(a2, w2!, at, 40);
  return day;
}

const summariesOf = async (ownerEmail: string, day: string) => (await mailsTo(ownerEmail)).filter((m) => m.subject === `Fixly daily summary: ${day}`);

describe('send-daily-summary (daily)', () => {
  it("mails the owner the day's figures exactly, what waits for them and the console's link", async () => {
    // Prepare: the day's jobs, and an application waiting now
    const ownerEmail = await ownerMailbox();
    const day = await handMadeDay();
    await pendingApplication();
    await settleCounts();

    // Act
    await handler({ day });
    await sendMail({ Records: [await outboxRecord('owner-daily-summary', day)] });

    // Assess
    const [mail, ...more] = await summariesOf(ownerEmail, day);
    expect(more).toEqual([]);
    expect(mail!.text).toContain('Jobs: 3 sent, 2 completed, 1 paid.');
    expect(mail!.text).toContain('Money: $100.00 in gross bookings, of which $10.00 in platform fees.');
    // Other test files file applications, upload documents and appeal strikes in the same table at
    // the same time: what waits is counted, at least the application made above.
    const waiting = mail!.text!.match(
      /Waiting for you now: (\d+) worker applications?, (\d+) company applications?, (\d+)( or more)? documents? to review and (\d+) strike appeals?\./,
    );
    expect(waiting).not.toBeNull();
    expect(Number(waiting![1])).toBeGreaterThanOrEqual(1);
    expect(mail!.text).toContain(`Open the console: http://localhost:3000${paths.admin}`);
  });

  it('sends one mail for the day however often it runs, and its record is delivered', async () => {
    // Prepare
    const ownerEmail = await ownerMailbox();
    const day = privateDay();

    // Act: run twice (a retry, a replay), the record delivered twice
    await handler({ day });
    await handler({ day });
    const record = await outboxRecord('owner-daily-summary', day);
    await sendMail({ Records: [record] });
    await sendMail({ Records: [record] });

    // Assess
    const mails = await summariesOf(ownerEmail, day);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain('Jobs: 0 sent, 0 completed, 0 paid.');
    expect(mails[0]!.text).toContain('Money: $0.00 in gross bookings, of which $0.00 in platform fees.');
  });

  it("summarises yesterday (UTC) when run by its schedule", async () => {
    // Prepare
    const ownerEmail = await ownerMailbox();
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

    // Act
    await handler(sampleEvent('send-daily-summary'));

    // Assess
    expect(await mailRepo.find('owner-daily-summary', yesterday)).toMatchObject({ to: ownerEmail, subject: `Fixly daily summary: ${yesterday}` });
  });

  it('takes a named past day for a replay, and refuses today, the future and what is not a day', () => {
    const now = Date.parse('2026-03-10T07:00:00Z');

    expect(summaryInput({ source: 'aws.scheduler', schedule: 'send-daily-summary' }, now)).toEqual({ day: '2026-03-09' });
    expect(summaryInput({ day: '2026-02-28' }, now)).toEqual({ day: '2026-02-28' });
    expect(summaryInput({ day: '2026-03-10' }, now)).toBeUndefined();
    expect(summaryInput({ day: '2027-01-01' }, now)).toBeUndefined();
    expect(summaryInput({ day: '2026-02-30' }, now)).toBeUndefined();
    expect(summaryInput({ day: 20260301 }, now)).toBeUndefined();
  });
});
