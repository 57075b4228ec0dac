import { analyticsOf } from './analytics';
import { documentsRepo } from '../documents/data/documents';
import { mailRepo } from '../mail/data/mail';
import { ownerRepo } from '../identity/data/owner';
import { penaltiesRepo } from '../arrival/data/penalties';
import { stats } from './data/stats';
import { logger } from '../common/logger';
import { ownerDailySummary } from '../mail/messages/owner';
import { timer } from '../common/timer';

const DAY_MS = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The schedule's input names no day: the summary is of yesterday (UTC). An operator replaying a
 * run (or a test) may name a past day, `{ "day": "yyyy-mm-dd" }`; anything else is refused.
 */
export function summaryInput(event: unknown, now = Date.now()): { day: string } | undefined {
  const yesterday = dayOf(now - DAY_MS);
  const day = (event as { day?: unknown } | null)?.day;
  if (day === undefined) return { day: yesterday };
  const valid = typeof day === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(day) && dayOf(Date.parse(`${day}T00:00:00Z`) || 0) === day;
  return valid && day <= yesterday ? { day } : undefined;
}

/**
 * Daily, 07:00 UTC (EventBridge Scheduler, shared/routes.ts `recurring`): the owner's summary mail
 * of the day before. Its figures are that day's stats counters, summed by the analytics code
 * (jobs sent, completed and paid; gross bookings and platform fees: one item read); what waits for
 * the owner is counted as it is sent: pending worker and company applications (the overall
 * counters: one item), strike appeals (the sparse index of open appeals), and documents waiting for
 * review (a read of at most 1,000 current documents: "or more" beyond). The mail is keyed by the
 * day, so a second run the same day (a retry, a replay) sends nothing more. Without an owner email
 * address there is nobody to write to, and nothing is read.
 */
export const handler = timer('send-daily-summary', (input) => summaryInput(input), async ({ day }) => {
  const owner = await ownerRepo.find();
  if (!owner?.email) {
    logger.info('Daily summary not sent: the owner has given no email address', { day });
    return;
  }
  if (await mailRepo.find('owner-daily-summary', day)) {
    logger.info('Daily summary already queued', { day });
    return;
  }
  const [overall, days, documents, strikeAppeals] = await Promise.all([
    stats.overall(),
    stats.days(day, day),
    documentsRepo.countAwaitingReview(),
    penaltiesRepo.countOpenAppeals(),
  ]);
  const figures = analyticsOf(overall, days, { from: day, to: day }, 'day');
  const message = ownerDailySummary(owner.email, {
    day,
    jobsSent: figures.funnel.sent,
    jobsCompleted: figures.funnel.completed,
    jobsPaid: figures.funnel.paid,
    grossCents: figures.money.totals.grossCents,
    platformFeeCents: figures.money.totals.platformFeeCents,
    waiting: {
      workerApplications: figures.applications.pending,
      companyApplications: figures.companyApplications.pending,
      documents: documents.count,
      documentsMore: documents.more,
      strikeAppeals,
    },
  });
  const queued = await mailRepo.queue(message);
  logger.info('Daily summary', { day, queued });
});
