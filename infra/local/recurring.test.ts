import { describe, expect, it } from 'vitest';
import { recurring } from '../../shared/routes';
import { nextDailyRun, startRecurringJobs } from './recurring';

describe('local recurring jobs', () => {
  it('runs a daily job later the same day when its time has not come yet', () => {
    // Act
    const next = nextDailyRun({ hour: 6, minute: 15 }, new Date('2026-11-22T05:00:00Z'));

    // Assess
    expect(next.toISOString()).toBe('2026-11-22T06:15:00.000Z');
  });

  it('runs it the next day once its time has passed, month ends included', () => {
    expect(nextDailyRun({ hour: 6, minute: 15 }, new Date('2026-11-30T06:15:00Z')).toISOString()).toBe('2026-12-01T06:15:00.000Z');
    expect(nextDailyRun({ hour: 6, minute: 15 }, new Date('2026-12-31T23:59:00Z')).toISOString()).toBe('2027-01-01T06:15:00.000Z');
  });

  it('keeps the cloud cron and the local time of each job the same', () => {
    for (const job of recurring) {
      // Prepare
      const [minute, hour] = job.cron.replace(/^cron\(|\)$/g, '').split(' ');

      // Assess
      expect({ hour: Number(hour), minute: Number(minute) }).toEqual(job.dailyAtUtc);
    }
  });

  it('runs each job once at start with its sample event as input', async () => {
    // Prepare
    const ran: { name: string; input: unknown }[] = [];

    // Act
    const jobs = startRecurringJobs(recurring, async (name, input) => {
      ran.push({ name, input });
    });
    jobs.stop();

    // Assess
    expect(ran).toEqual(recurring.map((job) => ({ name: job.name, input: expect.any(Object) })));
  });
});
