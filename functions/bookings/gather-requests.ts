import { customersRepo } from '../common/auth/customers';
import { customerItemsRepo, everything, madeWith, noneMoved, type Moved } from '../identity/data/customer-items';
import { jobNumber, jobsRepo, type JobItem } from '../jobs/data/jobs';
import type { LinkedRequest } from '../../shared/schemas/requests-link';
import { requestsLinksRepo } from './data/requests-links';

/**
 * "Find my requests": what opening a requests link does once the link is spent, in the browser
 * that asked for it (any other is only shown addressRequests, below). The address gets one
 * identity (its account: the first browser that proved it reads the address, never one that only
 * typed it), and the opening browser acts as it from now on:
 *
 * - the opening browser's own identity (its cookie proves it is this browser's), and every
 *   identity that one was gathered into on the way, gives ALL its items and is marked gathered
 *   (`mergedInto`), so any other browser still holding it acts as the account too;
 * - every other identity that made something with the address gives only what it made with it,
 *   and is NOT gathered: typing an address proves nothing, so someone who typed another's address
 *   keeps their own other items and gains nothing, neither now nor when the owner opens a link.
 *
 * Every move is conditional on the item's customer being the one it is moved from, so a gathering
 * cut short is finished by the next link, and a repeat moves nothing twice.
 */
export interface Gathered {
  customerId: string;
  moved: Moved;
}

/**
 * `cookieId`: the id the browser's customer cookie holds (well formed; maybe never issued, maybe
 * gathered into another already); the browser asked for the link.
 */
export async function gatherRequests(email: string, cookieId: string | undefined): Promise<Gathered> {
  // The browser's own ids: its cookie's, and those it was gathered into, the one it acts as last.
  const own = (cookieId && (await customersRepo.chain(cookieId, true))) || [];
  const current = own.at(-1);
  const customerId = await accountOf(email, current);
  const moved = noneMoved();
  if (current && current !== customerId) await customersRepo.markMerged(current, customerId);
  for (const id of own) if (id !== customerId) await customerItemsRepo.refile(id, customerId, everything, moved);
  // Identities that typed the address: what they made with it, nothing else, and they stay their own.
  const address = email.trim().toLowerCase();
  for (const typed of await requestsLinksRepo.identitiesOf(address)) {
    if (own.includes(typed)) continue;
    // Where what it made with the address may sit now: under it, or where it was gathered into.
    const chain = (await customersRepo.chain(typed, true)) ?? [typed];
    for (const id of new Set([typed, chain.at(-1)!])) {
      if (id !== customerId && !own.includes(id)) await customerItemsRepo.refile(id, customerId, madeWith(address), moved);
    }
  }
  return { customerId, moved };
}

/**
 * The address's identity: the one its account names (followed through gatherings, the account
 * then pointed at the end), or, for an address nobody proved before, this browser's own identity
 * (when it asked for the link), or a new one.
 */
async function accountOf(email: string, current: string | undefined): Promise<string> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const account = await requestsLinksRepo.account(email);
    if (account) {
      const resolved = await customersRepo.resolve(account.customerId, true);
      if (resolved) {
        if (resolved !== account.customerId) await requestsLinksRepo.moveAccount(email, account.customerId, resolved);
        return resolved;
      }
    }
    const mine = current ?? (await customersRepo.issue());
    if (account) {
      // The account's identity no longer resolves (a chain past its bound): this browser's takes its place.
      await requestsLinksRepo.moveAccount(email, account.customerId, mine);
      return mine;
    }
    if (await requestsLinksRepo.claimAccount(email, mine)) return mine;
    // Another browser proved the address at the same moment: read its account and join it.
  }
  throw new Error('The address account could not be settled');
}

/**
 * The address's requests, read only: what its identity has (when a browser proved the address
 * before) and what every identity that typed the address made with it, newest first. This is what
 * opening a link shows, before it is spent (the confirmation) and in a browser that did not ask
 * for it (which is shown them and moves nothing).
 */
export async function addressRequests(email: string): Promise<JobItem[]> {
  const address = email.trim().toLowerCase();
  const account = await requestsLinksRepo.account(address);
  const accountId = account ? await customersRepo.resolve(account.customerId, true) : undefined;
  const found = new Map<string, JobItem>();
  if (accountId) for (const job of await jobsRepo.listForCustomer(accountId)) found.set(job.id, job);
  for (const typed of await requestsLinksRepo.identitiesOf(address)) {
    // Where what it made with the address may sit now: under it, or where it was gathered into.
    const at = (await customersRepo.resolve(typed, true)) ?? typed;
    if (at === accountId) continue;
    for (const job of await jobsRepo.listForCustomer(at)) {
      if (job.customerEmail?.trim().toLowerCase() === address) found.set(job.id, job);
    }
  }
  return [...found.values()].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

/** A request as the link's pages show it to someone who has not (yet) got it in their browser. */
export function linkedRequestOf(job: JobItem): LinkedRequest {
  // The street line alone: enough for its owner to know it, and no more of the address than that.
  const street = job.address.split(',')[0]?.trim();
  return { service: job.service, number: jobNumber(job), place: street || job.address, createdAt: job.createdAt };
}
