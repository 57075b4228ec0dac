import { describe, expect, it, vi } from 'vitest';
import { recurring } from '../../shared/routes';
import { nextDailyRun, nextPeriodicRun, startRecurringJobs } from './recurring';

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
      if ('everyMinutes' in job) expect({ minute, hour }).toEqual({ minute: `0/${job.everyMinutes}`, hour: '*' });
      else expect({ hour: Number(hour), minute: Number(minute) }).toEqual(job.dailyAtUtc);
    }
  });

  it('runs a job of every few minutes at the next minute of the hour its period divides, as its cron does', () => {
    expect(nextPeriodicRun(2, new Date('2026-11-22T05:00:00Z')).toISOString()).toBe('2026-11-22T05:02:00.000Z');
    expect(nextPeriodicRun(2, new Date('2026-11-22T05:03:59Z')).toISOString()).toBe('2026-11-22T05:04:00.000Z');
    expect(nextPeriodicRun(2, new Date('2026-11-22T23:59:30Z')).toISOString()).toBe('2026-11-23T00:00:00.000Z');
  });

  it("adds a job's start fields to its run at start alone", async () => {
    // Prepare
    vi.useFakeTimers({ now: new Date('2026-11-22T05:00:30Z'), toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const ran: unknown[] = [];
    const job = { name: 'sweep-mail-outbox', cron: 'cron(0/2 * * * ? *)', everyMinutes: 2, table: 'readwrite', description: 'sweep' } as const;

    // Act
    const jobs = startRecurringJobs([job], async (_name, input) => {
      ran.push(input);
    }, { atStart: { 'sweep-mail-outbox': { sendersGoneBefore: '2026-11-22T05:00:30.000Z' } } });
    try {
      await vi.advanceTimersByTimeAsync(2 * 60_000);

      // Assess
      expect(ran).toEqual([
        { source: 'aws.scheduler', schedule: 'sweep-mail-outbox', sendersGoneBefore: '2026-11-22T05:00:30.000Z' },
        { source: 'aws.scheduler', schedule: 'sweep-mail-outbox' },
      ]);
    } finally {
      jobs.stop();
      vi.useRealTimers();
    }
  });

  it('fires a job of every few minutes again and again, and a daily one not before its day', async () => {
    // Prepare
    vi.useFakeTimers({ now: new Date('2026-11-22T05:00:30Z'), toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const ran: string[] = [];
    const jobs = startRecurringJobs(
      [
        { name: 'sweep-mail-outbox', cron: 'cron(0/2 * * * ? *)', everyMinutes: 2, table: 'readwrite', description: 'sweep' },
        { name: 'send-daily-summary', cron: 'cron(0 7 * * ? *)', dailyAtUtc: { hour: 7, minute: 0 }, table: 'readwrite', description: 'summary' },
      ],
      async (name) => {
        ran.push(name);
      },
      { runAtStart: false },
    );

    try {
      // Act: 05:00:30 → 05:06:30
      await vi.advanceTimersByTimeAsync(6 * 60_000);

      // Assess: 05:02, 05:04, 05:06
      expect(ran).toEqual(['sweep-mail-outbox', 'sweep-mail-outbox', 'sweep-mail-outbox']);
    } finally {
      jobs.stop();
      vi.useRealTimers();
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
