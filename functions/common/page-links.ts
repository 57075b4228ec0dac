import type { JobItem } from '../../shared/entities';

/*
 * The web pages a notification or a mail leads to. Several areas (jobs, payments, mail, owner)
 * send people there, so the paths sit beneath them all rather than in any one of them.
 */

/**
 * Where a customer's notifications and mails lead: a job's tracking page (web/src/lib/paths.ts
 * `track`), which works on any device and whatever door the job came in by. The id rides in the
 * fragment, which browsers never send, so opening the link leaves it in no access log.
 */
export const requestUrl = (jobId: string) => `/track#id=${encodeURIComponent(jobId)}`;

/** A crew's customer is sent to the request's (the lead's) page, where the whole crew is followed and verified. */
export const customerUrl = (job: Pick<JobItem, 'id' | 'crew'>) => requestUrl(job.crew?.leadId ?? job.id);

/**
 * Where the owner's notifications and mails lead in the console: the dashboard, one of its tabs
 * (dashboard-page.tsx reads `tab`), or the owner's page of one job, where its timeline is and it
 * can be offered again.
 */
export const ownerConsoleUrl = {
  console: '/admin',
  applications: '/admin?tab=applications',
  workers: '/admin?tab=workers',
  documents: '/admin?tab=documents',
  job: (jobId: string) => `/admin/jobs/${encodeURIComponent(jobId)}`,
} as const;
