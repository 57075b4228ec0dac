import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { jobsRepo, type JobItem } from '../jobs/data/jobs';
import { offerNext } from '../jobs/dispatch';
import { asOwner } from './applications';
import { testJob, testPlace } from './dispatch';
import { invoke, withBody } from './events';

/**
 * Owner's-jobs fixtures. The shared test table holds every test's jobs, so lists are read by
 * following their cursors (with a filter of the test's own trade where the list takes one).
 */

/** A job whose search ended with nobody: its trade has no pro on call. */
export async function noProJob(category: string): Promise<JobItem> {
  const job = await testJob(category, testPlace());
  await offerNext(job.id);
  const stored = (await jobsRepo.findById(job.id))!;
  if (stored.dispatch !== 'no_worker_available') throw new Error('noProJob: the search found somebody');
  return stored;
}

/** Every row of an owner's list for `query`, following cursors (at most `pages` pages). */
export async function everyRow<T = any>(
  handler: Parameters<typeof invoke>[0],
  name: string,
  query: Record<string, string> = {},
  pages = 200,
): Promise<{ items: T[]; pages: number[] }> {
  const items: T[] = [];
  const sizes: number[] = [];
  let cursor: string | undefined;
  do {
    const event = await asOwner(name);
    const res = await invoke(handler, { ...event, queryStringParameters: { limit: '100', ...query, ...(cursor ? { cursor } : {}) } });
    if (res.status !== 200) throw new Error(`${name} answered ${res.status} ${JSON.stringify(res.body)}`);
    items.push(...(res.body.items as T[]));
    sizes.push(res.body.items.length);
    cursor = res.body.nextCursor ?? undefined;
  } while (cursor && sizes.length < pages);
  return { items, pages: sizes };
}

/** The owner's call on a job: its sample event as the owner, for the job, with a body if any. */
export async function ownerCall(name: string, jobId: string, body?: unknown): Promise<APIGatewayProxyEventV2> {
  const event = await asOwner(name, { id: jobId });
  return body === undefined ? event : withBody(event, body);
}
