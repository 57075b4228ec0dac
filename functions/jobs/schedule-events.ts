import { rooms } from '../../shared/realtime';
import { inTownOf } from '../../shared/domain/town';
import { isCrewLead } from './crews';
import { requestUrl } from '../common/page-links';
import type { JobItem } from './data/jobs';
import { notify, publish, publishToJob } from '../realtime/realtime';
import { REMINDERS, type ReminderKind } from './scheduling';

/**
 * What a scheduled job tells people: its reminders and a reschedule. High priority, so each is a
 * stored notification, sent live, and a web push (the notification is push's outbox).
 */

const jobUrl = (jobId: string) => `/worker/jobs/${encodeURIComponent(jobId)}`;

/** The server does not know the reader's time zone: the instant in UTC, which every screen can place. */
export const startText = (start: string) => new Date(start).toUTCString().replace(' GMT', ' UTC');

/**
 * Each pro of a crew is reminded of their own job; the customer is reminded once, by the lead's
 * reminder, which links to the request's page where the whole crew is followed.
 */
export async function reminderDue(job: JobItem, kind: ReminderKind): Promise<void> {
  const when = REMINDERS[kind].label;
  const remindCustomer = () =>
    notify('customer', job.customerId, {
      type: 'job_reminder',
      title: `Your ${job.service} is ${when}`,
      message: job.acceptedBy
        ? `Your pro is booked for ${startText(job.requestedTime!)}. You can still reschedule or cancel from your request's page until they are on the way.`
        : `It is booked for ${startText(job.requestedTime!)}; we are finding your pro.`,
      priority: 'high',
      actionUrl: requestUrl(job.id),
      jobId: job.id,
    });
  await Promise.all([
    ...(isCrewLead(job) ? [remindCustomer()] : []),
    ...(job.acceptedBy
      ? [
          notify('worker', job.acceptedBy, {
            type: 'job_reminder',
            title: `Job ${when}: ${job.service}`,
            message: `${job.address}, starting ${startText(job.requestedTime!)}. The 45 minutes to arrive count from the start.`,
            priority: 'high',
            actionUrl: jobUrl(job.id),
            jobId: job.id,
          }),
        ]
      : []),
  ]);
}

/** The customer moved the start: the pro who accepted is told; pros whose offers stood lose them. */
export async function jobRescheduled(job: JobItem, withdrawnFrom: readonly string[]): Promise<void> {
  const message = `Moved to ${startText(job.requestedTime!)}.`;
  await Promise.all([
    publishToJob(job.id, 'job_searching', { requestId: job.id, message }),
    ...withdrawnFrom.map((id) => publish(rooms.user('worker', id), 'offer:withdrawn', { jobId: job.id })),
    ...(job.acceptedBy
      ? [
          notify('worker', job.acceptedBy, {
            type: 'job_rescheduled',
            title: 'Job rescheduled',
            message: `The customer moved ${job.service} at ${job.address} to ${startText(job.requestedTime!)}. Your arrival deadline moved with it.`,
            priority: 'high',
            actionUrl: jobUrl(job.id),
            jobId: job.id,
          }),
        ]
      : []),
  ]);
}

/** The customer cancelled a scheduled job the pro had accepted: the pro is told they are free. */
export async function scheduledJobCancelled(job: JobItem, workerId: string): Promise<void> {
  await notify('worker', workerId, {
    type: 'job_cancelled',
    title: 'Job cancelled',
    message: `The customer cancelled ${job.service}${inTownOf(job.address)} (${startText(job.requestedTime!)}). You are free to take other jobs.`,
    priority: 'high',
    actionUrl: '/worker/dashboard',
    jobId: job.id,
  });
}
