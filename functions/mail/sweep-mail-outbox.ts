import { MAIL_SENDING_LEASE_SECONDS, mailRepo } from './data/mail';
import { env } from '../common/env';
import { deliverMail, type Delivery } from './deliver';
import { mailConfigured } from './send';
import { logger } from '../common/logger';
import { timer } from '../common/timer';

/** Candidates read per shard and run: a run's sends fit its time, and what is left waits for the next run. */
const PER_SHARD = 50;
/** Mails sent side by side: SES's default rate is higher, but a burst of retries should not be one. */
const CONCURRENCY = 4;
/** No new send starts after this much of the run (its timeout is 5 minutes, and one send may take the SES limit). */
const RUN_BUDGET_MS = 4 * 60_000;

/**
 * The schedule's input: nothing (`{ source, schedule }`), or, from the local runtime as it starts,
 * `sendersGoneBefore` (ISO): no sender that ran before then still runs (the data folder is one
 * stack's at a time), so their claims need not lapse and their pending mail will get no stream
 * delivery: the sweep takes both now. Only the local runtime may say so; in the cloud nothing can
 * know another sender is gone, and the field is ignored.
 */
export function sweepInput(input: unknown): { sendersGoneBefore?: number } | undefined {
  const given = (input ?? {}) as { sendersGoneBefore?: unknown };
  if (typeof given !== 'object') return undefined;
  if (given.sendersGoneBefore === undefined) return {};
  const at = typeof given.sendersGoneBefore === 'string' ? Date.parse(given.sendersGoneBefore) : NaN;
  if (Number.isNaN(at)) return undefined;
  if (!env.LOCAL_RUNTIME) {
    logger.warn('Sweep input sendersGoneBefore ignored: only the local runtime may give it');
    return {};
  }
  return { sendersGoneBefore: Math.floor(at / 1000) };
}

/**
 * Every few minutes (shared/routes.ts `recurring`; locally also once at start): sends the outbox
 * mails the stream did not, those still pending past their grace (the stream's delivery was lost,
 * or its sender gave them back) and those claimed by a sender that died (their lease lapsed). They
 * are found by Queries of the sparse index of unsent mail, one per shard, never a Scan. Each is
 * claimed again with the same conditional claim the stream consumer takes, so a mail the stream or
 * another sweep is sending is left to it, and two sweeps at once send each mail once.
 */
export const handler = timer('sweep-mail-outbox', sweepInput, async ({ sendersGoneBefore }) => {
  if (!mailConfigured()) {
    logger.warn('Mail not configured (MAIL_FROM, SITE_URL): the outbox is not swept');
    return;
  }
  const started = Date.now();
  // A gone sender's mail is due at the latest when its lease (longer than the grace) would end.
  const until = sendersGoneBefore === undefined ? new Date() : new Date(Math.max(Date.now(), (sendersGoneBefore + MAIL_SENDING_LEASE_SECONDS) * 1000));
  const due = await mailRepo.dueForSweep(PER_SHARD, until);
  const counts: Record<Delivery['outcome'] | 'failed' | 'left', number> = { sent: 0, settled: 0, done: 0, busy: 0, failed: 0, left: 0 };
  let next = 0;
  const worker = async () => {
    while (next < due.length) {
      const mail = due[next++]!;
      if (Date.now() - started > RUN_BUDGET_MS) {
        counts.left++;
        continue;
      }
      try {
        counts[(await deliverMail(mail.kind, mail.subjectId, Boolean(mail.secretLink), { sendersGoneBefore })).outcome]++;
      } catch (error) {
        // Given back by the sender: the next sweep tries it again.
        counts.failed++;
        logger.warn('Swept mail failed: left for the next sweep', { kind: mail.kind, errorName: (error as Error)?.name });
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  logger.info('Mail outbox swept', { found: due.length, ...counts });
});
