import type { JobItem } from '../jobs/data/jobs';

/**
 * Where a customer's notifications and mails lead: a job's tracking page (web/src/lib/paths.ts
 * `track`), which works on any device and whatever door the job came in by. The id rides in the
 * fragment, which browsers never send, so opening the link leaves it in no access log.
 */
export const requestUrl = (jobId: string) => `/track#id=${encodeURIComponent(jobId)}`;

/** A crew's customer is sent to the request's (the lead's) page, where the whole crew is followed and verified. */
export const customerUrl = (job: Pick<JobItem, 'id' | 'crew'>) => requestUrl(job.crew?.leadId ?? job.id);
