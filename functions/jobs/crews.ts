import { jobEntity } from '../../shared/entities';
import { batchGet } from '../common/data/batch';
import { jobsRepo, type JobItem } from './data/jobs';
import { WriteCancelled } from '../common/data/transact';
import { ConflictError } from '../common/errors';
import { declareTableUse } from '../../shared/entities';

/**
 * A request for more than one pro is a crew: N ordinary jobs made together, each dispatched, held,
 * timed and invoiced by its own pro. The lead (index 1) is the request the customer lists, tracks,
 * verifies and pays through; every job names them all (`crew.jobIds`), so one BatchGet reads the
 * whole crew from any of them.
 */

/** What a customer's call about the crew answers when it names a member rather than the request. */
export const CREW_MEMBER_ACTION = 'This pro is part of a crew: manage the request from its own page.';

/** True for the lead of a crew (or a job of one pro): the job the customer acts on. */
export function isCrewLead(job: Pick<JobItem, 'id' | 'crew'>): boolean {
  return !job.crew || job.crew.leadId === job.id;
}

/** A member that is not the lead: the customer manages it from the lead's page. */
export function refuseCrewMember(job: Pick<JobItem, 'id' | 'crew'>): void {
  if (!isCrewLead(job)) throw new ConflictError(CREW_MEMBER_ACTION);
}

/**
 * The N jobs of a request for N pros, built from the lead's (as jobFromRequest made it) and the
 * ids of the rest: each carries the crew and the count; only the lead is among the customer's
 * requests, the members are reached through it. Every job keeps the crew's one estimate, so
 * each pro's invoice takes its part of it (the rush fee divided by the count). One job for N = 1.
 */
export function crewJobs(lead: JobItem, memberIds: readonly string[], build: (id: string) => JobItem): JobItem[] {
  if (memberIds.length === 0) return [lead];
  const jobIds = [lead.id, ...memberIds];
  const size = jobIds.length;
  return jobIds.map((id, i) => {
    const job = i === 0 ? lead : build(id);
    // A member leaves the customer's requests: its entity's membership says so.
    return jobEntity.withIndexKeys({ ...job, workerCount: size, crew: { leadId: lead.id, index: i + 1, size, jobIds } });
  });
}

/**
 * Stores the members, then the lead. A retried creation (the same Idempotency-Key) meets members
 * it already stored and goes on; the lead's write decides: it is refused only when the first call
 * got that far, and the caller answers the earlier request then. So a crew is never left without
 * its lead once the lead exists, and a retry never makes a second crew.
 */
export async function storeCrew(jobs: readonly JobItem[], keyed: boolean, store: (job: JobItem) => Promise<void>): Promise<void> {
  const [lead, ...members] = jobs;
  for (const member of members) {
    try {
      await store(member);
    } catch (error) {
      if (!(keyed && error instanceof WriteCancelled && (await jobsRepo.findById(member.id)))) throw error;
    }
  }
  await store(lead!);
}

/** The jobs of these ids, read consistently (a fan-out reads what its own writes left). */
function readJobs(ids: readonly string[]): Promise<JobItem[]> {
  return batchGet<JobItem>([...new Set(ids)].map((id) => jobEntity.key(id)), true);
}

/**
 * Every job of the crew `job` is part of, in index order (the lead first), `job` itself as given;
 * [job] for one pro. One BatchGet.
 */
export async function crewOf(job: JobItem): Promise<JobItem[]> {
  if (!job.crew) return [job];
  const found = await readJobs(job.crew.jobIds.filter((id) => id !== job.id));
  const byId = new Map(found.map((j) => [j.id, j]));
  byId.set(job.id, job);
  return job.crew.jobIds.map((id) => byId.get(id)).filter((j): j is JobItem => j !== undefined);
}

/** The other jobs of `job`'s crew (none for one pro). One BatchGet. */
export async function siblingsOf(job: JobItem): Promise<JobItem[]> {
  if (!job.crew || job.crew.jobIds.length < 2) return [];
  return readJobs(job.crew.jobIds.filter((id) => id !== job.id));
}

/** The items this module reads and writes: the stack's table grants are generated from these (infra/table-grants.ts). */
export const tableUse = declareTableUse({ reads: [jobEntity] });
