import { rooms, type ServerEvent, type ServerEvents } from '../../shared/realtime';
import { inTownOf } from '../../shared/domain/town';
import { customerUrl, requestUrl } from '../common/page-links';
import type { InvoiceItem } from '../payments/data/invoices';
import type { JobItem } from './data/jobs';
import type { WorkerItem } from '../workers/data/workers';
import { toAssignedWorker } from './job-views';
import { jobWithNoPro } from '../owner/owner-events';
import { notify, publish, publishToJob } from '../realtime/realtime';

/**
 * The domain events of the job lifecycle, told to the rooms that follow them and to the people
 * concerned as notifications. Called after the state change is
 * written; delivery never fails the call (functions/realtime/realtime.ts).
 */

/**
 * A job's event to its room and, for a crew's member, to its lead's room too: the request's page
 * (the lead's) follows every pro of the crew. The same frame: its requestId names the member's job.
 */
async function toJobRooms<E extends ServerEvent>(job: Pick<JobItem, 'id' | 'crew'>, event: E, data: ServerEvents[E]): Promise<void> {
  const leadId = job.crew && job.crew.leadId !== job.id ? job.crew.leadId : null;
  await Promise.all([publishToJob(job.id, event, data), ...(leadId ? [publishToJob(leadId, event, data)] : [])]);
}

const jobUrl = (jobId: string) => `/worker/jobs/${encodeURIComponent(jobId)}`;

async function profileOf(worker: WorkerItem) {
  // Loaded only here: every function that announces events would otherwise build an S3 client at cold start.
  const photoUrl = worker.profilePhotoKey
    ? (await import('../common/storage').then(({ presignDownload }) => presignDownload(worker.profilePhotoKey!, 600)).catch(() => ({ url: null }))).url
    : null;
  return toAssignedWorker(worker, photoUrl);
}

export async function jobOffered(job: JobItem, workerIds: readonly string[]): Promise<void> {
  await Promise.all(
    workerIds.map((workerId) =>
      notify('worker', workerId, {
        type: 'job_created',
        title: 'New job offer',
        // The street is the holder's: an offer names the town.
        message: `${job.service}${inTownOf(job.address)}. Accept it before the offer expires.`,
        priority: 'high',
        actionUrl: '/worker/dashboard',
        jobId: job.id,
      }),
    ),
  );
}

export async function noWorkerAvailable(job: JobItem): Promise<void> {
  const message = 'No worker is available right now. Please try again later.';
  await Promise.all([
    toJobRooms(job, 'no_worker_available', { requestId: job.id, message }),
    notify('customer', job.customerId, { type: 'job_cancelled', title: 'No worker available', message, priority: 'high', actionUrl: customerUrl(job), jobId: job.id }),
    jobWithNoPro(job),
  ]);
}

export async function jobSearching(job: JobItem, message: string): Promise<void> {
  await Promise.all([
    toJobRooms(job, 'job_searching', { requestId: job.id, message }),
    notify('customer', job.customerId, { type: 'job_created', title: 'Finding you a pro', message, priority: 'medium', actionUrl: customerUrl(job), jobId: job.id }),
  ]);
}

/** The customer withdrew it: the pros it was offered to lose the offer at once. */
export async function jobCancelled(job: JobItem, offeredTo: readonly string[], message = 'You cancelled this request.'): Promise<void> {
  await Promise.all([
    toJobRooms(job, 'job_cancelled', { requestId: job.id, message }),
    ...offeredTo.map((id) => publish(rooms.user('worker', id), 'offer:withdrawn', { jobId: job.id })),
  ]);
}

/**
 * The owner cancelled it: the customer hears the owner's message (live and as a notification), the
 * pros it was offered to lose the offer, and the pro who held it is told it is no longer theirs.
 */
export async function jobCancelledByOwner(job: JobItem, message: string, offeredTo: readonly string[], heldBy: string | null): Promise<void> {
  await Promise.all([
    toJobRooms(job, 'job_cancelled', { requestId: job.id, message }),
    notify('customer', job.customerId, { type: 'job_cancelled', title: 'Your request was cancelled', message, priority: 'high', actionUrl: customerUrl(job), jobId: job.id }),
    ...offeredTo.map((id) => publish(rooms.user('worker', id), 'offer:withdrawn', { jobId: job.id })),
    ...(heldBy
      ? [
          notify('worker', heldBy, {
            type: 'job_cancelled',
            title: 'Job cancelled',
            message: `The owner cancelled ${job.service}${inTownOf(job.address)}. You are free to take other jobs.`,
            priority: 'high',
            actionUrl: '/worker/dashboard',
            jobId: job.id,
          }),
        ]
      : []),
  ]);
}

export async function jobAccepted(job: JobItem, worker: WorkerItem): Promise<void> {
  const profile = await profileOf(worker);
  await Promise.all([
    toJobRooms(job, 'service_accepted', { requestId: job.id }),
    toJobRooms(job, 'job:accepted', { jobId: job.id, workerProfile: profile }),
    toJobRooms(job, 'worker_assigned', { requestId: job.id, worker: profile }),
    publish(rooms.user('customer', job.customerId), 'worker_job_accepted', { workerId: worker.id, workerProfile: profile }),
    notify('customer', job.customerId, { type: 'job_accepted', title: 'Worker assigned', message: `${worker.fullName} accepted your ${job.service} request.`, priority: 'high', actionUrl: customerUrl(job), jobId: job.id }),
    // Everyone else it was offered to (in any round: one whose offer already lapsed just refetches).
    ...job.tried.filter((id) => id !== worker.id).map((id) => publish(rooms.user('worker', id), 'offer:withdrawn', { jobId: job.id })),
  ]);
}

const stepTexts = {
  en_route: { status: 'en_route', type: 'job_en_route', title: 'On the way', message: 'Your professional is on the way.' },
  arrived: { status: 'arrived', type: 'job_arrived', title: 'Arrived', message: 'Your professional has arrived.' },
  in_progress: { status: 'work_started', type: 'job_started', title: 'Work started', message: 'Your professional started the work.' },
} as const;

export async function jobStepped(job: JobItem, to: keyof typeof stepTexts): Promise<void> {
  const step = stepTexts[to];
  const at = new Date().toISOString();
  await Promise.all([
    toJobRooms(job, 'work_status', { requestId: job.id, status: step.status, eta: null, timestamp: at }),
    notify('customer', job.customerId, { type: step.type, title: step.title, message: step.message, priority: 'medium', actionUrl: customerUrl(job), jobId: job.id }),
  ]);
}

/**
 * The pro pressed Mark Arrived and no location proved it: the customer is asked, live on their
 * timeline and as a notification (high, so it reaches a phone in a pocket too).
 */
export async function arrivalClaimed(job: JobItem, workerName: string): Promise<void> {
  const message = `${workerName} says they have arrived. Please confirm on your request's page.`;
  await Promise.all([
    toJobRooms(job, 'arrival_claimed', { requestId: job.id, claimedAt: job.arrivalClaim?.claimedAt ?? new Date().toISOString(), message }),
    notify('customer', job.customerId, { type: 'job_arrival_claimed', title: 'Has your pro arrived?', message, priority: 'high', actionUrl: customerUrl(job), jobId: job.id }),
  ]);
}

/**
 * The customer answered "Has your pro arrived?": the pro is told either way; a yes is the arrived
 * step for everyone following the job (the customer is not notified of their own answer).
 */
export async function arrivalAnswered(job: JobItem, workerId: string, arrived: boolean): Promise<void> {
  const message = arrived
    ? 'The customer confirmed you have arrived.'
    : 'The customer says you have not arrived yet. Press Mark Arrived again once you are at the door; the 45-minute deadline still applies.';
  const at = new Date().toISOString();
  await Promise.all([
    toJobRooms(job, 'arrival_answered', { requestId: job.id, arrived, message }),
    ...(arrived ? [toJobRooms(job, 'work_status', { requestId: job.id, status: 'arrived', eta: null, timestamp: at })] : []),
    notify('worker', workerId, {
      type: arrived ? 'job_arrived' : 'system_alert',
      title: arrived ? 'Arrival confirmed' : 'Arrival not confirmed',
      message,
      priority: 'high',
      actionUrl: jobUrl(job.id),
      jobId: job.id,
    }),
  ]);
}

export async function jobCompleted(job: JobItem): Promise<void> {
  const message = `The work is complete${job.totalHours ? ` (${job.totalHours.toFixed(1)} hours)` : ''}. Please verify the completed work.`;
  await Promise.all([
    toJobRooms(job, 'work_completion_verification', { requestId: job.id, workerId: job.acceptedBy ?? '', workHours: job.totalHours, message }),
    notify('customer', job.customerId, { type: 'job_completed', title: 'Verify the completed work', message, priority: 'high', actionUrl: customerUrl(job), jobId: job.id }),
  ]);
}

export async function workVerified(job: JobItem, approved: boolean, notes: string | null): Promise<void> {
  if (!job.acceptedBy) return;
  await Promise.all([
    toJobRooms(job, 'client_verification_response', { requestId: job.id, approved, message: notes, timestamp: new Date().toISOString() }),
    notify('worker', job.acceptedBy, approved
      ? { type: 'job_completed', title: 'Work approved', message: 'The customer approved the work. You can send your invoice.', priority: 'high', actionUrl: jobUrl(job.id), jobId: job.id }
      : { type: 'job_started', title: 'Changes requested', message: notes ? `The customer asked for changes: ${notes}` : 'The customer asked for changes.', priority: 'high', actionUrl: jobUrl(job.id), jobId: job.id }),
  ]);
}

export async function invoiceCreated(invoice: InvoiceItem): Promise<void> {
  await Promise.all([
    publishToJob(invoice.jobId, 'invoice_created', { requestId: invoice.jobId, workerId: invoice.workerId, invoice: { id: invoice.id, totalAmount: invoice.totalAmount, laborHours: invoice.laborHours } }),
    publishToJob(invoice.jobId, 'invoice_verification_request', { requestId: invoice.jobId, invoiceId: invoice.id, invoiceAmount: invoice.totalAmount }),
    notify('customer', invoice.customerId, { type: 'payment_received', title: 'Invoice ready', message: `Your invoice of $${(invoice.totalAmount / 100).toFixed(2)} is ready to pay.`, priority: 'high', actionUrl: requestUrl(invoice.jobId), jobId: invoice.jobId }),
  ]);
}

export async function paymentCompleted(invoice: InvoiceItem): Promise<void> {
  await Promise.all([
    publishToJob(invoice.jobId, 'payment_completed', { requestId: invoice.jobId, invoiceId: invoice.id, receiptSent: { email: Boolean(invoice.customerEmail), sms: false } }),
    notify('worker', invoice.workerId, { type: 'payment_received', title: 'Payment received', message: `The customer paid $${(invoice.totalAmount / 100).toFixed(2)}; your share is $${(invoice.workerShare / 100).toFixed(2)}.`, priority: 'medium', actionUrl: '/worker/earnings', jobId: invoice.jobId }),
    notify('customer', invoice.customerId, {
      type: 'payment_received',
      title: 'Payment complete',
      message: `Thank you: your payment of $${(invoice.totalAmount / 100).toFixed(2)} went through. How did ${invoice.workerName} do? Rate your pro.`,
      priority: 'low',
      actionUrl: `/rate/${encodeURIComponent(invoice.jobId)}`,
      jobId: invoice.jobId,
    }),
  ]);
}

/**
 * The owner suspended or terminated the pro who held the job before the work started, and it went
 * back to dispatch: the customer hears a new pro is being found; the pro hears the job is no longer
 * theirs and that it is no strike (their account notice says why they were taken off).
 */
export async function jobReleased(job: JobItem, workerId: string, change: 'suspend' | 'terminate'): Promise<void> {
  const message = 'Your professional can no longer do this job. We are finding you another one.';
  await Promise.all([
    toJobRooms(job, 'job_reassigned', { requestId: job.id, message }),
    notify('customer', job.customerId, { type: 'job_cancelled', title: 'Finding you a new pro', message, priority: 'high', actionUrl: customerUrl(job), jobId: job.id }),
    notify('worker', workerId, {
      type: 'job_cancelled',
      title: 'Job released',
      message: `${job.service}${inTownOf(job.address)} went back to dispatch because your account was ${change === 'terminate' ? 'terminated' : 'suspended'}. This is not a strike.`,
      priority: 'high',
      actionUrl: '/worker/dashboard',
      jobId: job.id,
    }),
  ]);
}

export async function jobReassigned(job: JobItem, lateWorkerId: string, suspended: boolean): Promise<void> {
  const message = 'Your professional could not arrive in time. We are finding you another one.';
  await Promise.all([
    toJobRooms(job, 'job_reassigned', { requestId: job.id, message }),
    notify('customer', job.customerId, { type: 'job_cancelled', title: 'Job reassigned', message, priority: 'high', actionUrl: customerUrl(job), jobId: job.id }),
    notify('worker', lateWorkerId, {
      type: 'system_alert',
      title: suspended ? 'Account suspended' : 'Strike: late arrival',
      message: suspended
        ? 'You did not arrive in time again: a second strike suspends your account until the owner reviews it. You can see your strikes and appeal them.'
        : 'You did not arrive within 45 minutes; the job went to another professional and you received a strike. You can see it, with its evidence, and appeal it.',
      priority: 'critical',
      actionUrl: '/worker/dashboard',
      jobId: job.id,
    }),
  ]);
}
