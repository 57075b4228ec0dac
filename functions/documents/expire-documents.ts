import { addDays, isPastExpiry, reminderDue } from '../../shared/domain/documents';
import { EXPIRY_REMINDER_DAYS, todayUtc } from '../../shared/schemas/document-rules';
import { documentsRepo, type DocumentItem } from './data/documents';
import { dispatchIndex } from '../jobs/data/dispatch-index';
import { mailRepo } from '../mail/data/mail';
import { workersRepo } from '../workers/data/workers';
import { hasOtherValid, requiredCategoriesOf } from './documents';
import { logger } from '../common/logger';
import { documentExpiring } from '../mail/messages/pros';
import { notify } from '../realtime/realtime';
import { timer } from '../common/timer';

const dashboard = '/worker/dashboard';

async function remind(doc: DocumentItem, today: string, at: string): Promise<boolean> {
  const due = reminderDue(doc.expirationDate!, today, { reminded30: Boolean(doc.reminded30At), reminded7: Boolean(doc.reminded7At) });
  // A replaced version is only watched for its expiry; its worker already sent the new one.
  if (!due || !doc.isLatestVersion || !(await documentsRepo.markReminded(doc, due, at))) return false;
  await notify('worker', doc.workerId, {
    type: 'document_expiring',
    title: 'Document expiring soon',
    message: `Your ${doc.categoryName} expires on ${doc.expirationDate}. Upload a current one before then to keep receiving offers.`,
    priority: due === 7 ? 'high' : 'medium',
    actionUrl: dashboard,
    jobId: null,
  });
  // Mailed too, once per document and reminder (keyed `<id>:<days>`), to the pro's account address.
  const worker = await workersRepo.findById(doc.workerId);
  const mail = worker && documentExpiring(worker, doc, due, today);
  await mailRepo.queue(mail);
  return true;
}

/**
 * Marks the document expired; when its category is required of the worker and no other approved,
 * unexpired document of it exists, the worker's offers pause in the same write.
 */
async function expire(doc: DocumentItem, today: string, at: string): Promise<'expired' | 'paused' | undefined> {
  const worker = await workersRepo.findById(doc.workerId);
  const required = worker !== undefined && requiredCategoriesOf(worker).some((c) => c.id === doc.categoryId);
  const pause = required && !hasOtherValid(await documentsRepo.allVersionsOf(doc.workerId), doc.categoryId, doc.id, today);
  if (!(await documentsRepo.expire(doc, at, pause ? doc.categoryId : undefined))) return undefined;
  if (pause) {
    const paused = await workersRepo.findById(doc.workerId);
    if (paused) await dispatchIndex.sync(paused);
  }
  await notify('worker', doc.workerId, {
    type: 'document_expired',
    title: 'Document expired',
    message: pause
      ? `Your ${doc.categoryName} expired. You will not receive job offers until a current one is uploaded and approved.`
      : `Your ${doc.categoryName} expired. Upload a current one.`,
    priority: pause ? 'critical' : 'high',
    actionUrl: dashboard,
    jobId: null,
  });
  return pause ? 'paused' : 'expired';
}

/**
 * Daily (EventBridge Scheduler, shared/routes.ts `recurring`): one Query of the sparse expiry index
 * for documents dated up to 30 days ahead. Past their date: marked expired (offers paused when a
 * required one leaves nothing valid); otherwise reminded 30 and 7 days before. Every step is a
 * conditional write, so a second run the same day, or two at once, changes and sends nothing twice.
 */
export const handler = timer('expire-documents', (input) => input ?? {}, async () => {
  const today = todayUtc();
  const at = new Date().toISOString();
  const due = await documentsRepo.expiringBy(addDays(today, Math.max(...EXPIRY_REMINDER_DAYS)));
  const counts = { expired: 0, paused: 0, reminded: 0, failed: 0 };
  for (const doc of due) {
    try {
      if (!doc.expirationDate) continue;
      if (isPastExpiry(doc.expirationDate, today)) {
        const outcome = await expire(doc, today, at);
        if (outcome) counts.expired++;
        if (outcome === 'paused') counts.paused++;
      } else if (await remind(doc, today, at)) counts.reminded++;
    } catch (error) {
      // One document's failure does not stop the others; the next run tries it again.
      counts.failed++;
      logger.error('Document expiry step failed', { documentId: doc.id, errorName: (error as Error)?.name, errorMessage: (error as Error)?.message });
    }
  }
  logger.info('Document expiry run', { today, seen: due.length, ...counts });
  if (counts.failed) throw new Error(`${counts.failed} document(s) failed; Scheduler retries the run`);
});
