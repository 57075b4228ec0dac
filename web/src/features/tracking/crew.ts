import type { TrackedRequestView } from '../../../../shared/schemas/job';
import type { CrewMemberView } from '../../../../shared/schemas/views/job';
import type { TrackingAction, TrackingNow } from '../../domain/jobs/job-timeline';

/**
 * What /track decides for a request for several pros (a crew) before anything is shown: its poll,
 * the customer's one action, the headline, and what a member's own page leaves to the request's
 * page. How each pro and the bill read is in crew-display.ts, loaded with the crew's section.
 */

/** The states of a pro who finished their work. */
export const FINISHED: readonly string[] = ['completed', 'verified', 'paid'];

/** While a crew's pro is on the way, the page asks again this often even once the lead itself has nothing left to wait for. */
export const CREW_EN_ROUTE_POLL_MS = 15_000;

/** The page's poll: the lead's own while it is not final, else every 15 s while any pro of the crew travels, else none. */
export function trackPollMs(view: Pick<TrackedRequestView, 'crew'>, leadFinal: boolean, leadPollMs: number): number | false {
  if (!leadFinal) return leadPollMs;
  return view.crew?.some((member) => member.jobState === 'accepted' || member.jobState === 'en_route') ? CREW_EN_ROUTE_POLL_MS : false;
}

/** Every pro who holds a place has finished (places nobody took, or cancelled, are left out): the crew's work can be verified. */
export function crewFinished(crew: readonly Pick<CrewMemberView, 'jobState' | 'worker'>[]): boolean {
  const held = crew.filter((member) => member.worker && member.jobState !== 'cancelled');
  return held.length > 0 && held.every((member) => FINISHED.includes(member.jobState));
}

/**
 * The customer's one thing to do on a crew's pages. On the lead, verification is for the whole crew
 * (offered once every pro has finished) and paying goes through the bill (its own section), so the
 * lead's single invoice is never paid alone. A member's own page leaves verifying, paying,
 * cancelling and trying again to the request's page; it keeps the arrival question and rating its pro.
 */
export function crewActionOf(view: Pick<TrackedRequestView, 'crew' | 'crewLeadId'>, action: TrackingAction): TrackingAction {
  if (view.crewLeadId) return action === 'confirm-arrival' || action === 'rate' ? action : 'none';
  if (view.crew) {
    if (action === 'pay') return 'none';
    if (action === 'verify' && !crewFinished(view.crew)) return 'none';
  }
  return action;
}

/** "Part of a request for 3 pros": what a member's own page says before sending the customer back to the request. */
export function crewMemberNote(workerCount: number): string {
  return `Part of a request for ${workerCount} pros — verify and pay on the request's page.`;
}

const ON_SITE: readonly string[] = ['arrived', 'in_progress'];
const COMING: readonly string[] = ['accepted', 'en_route'];

/**
 * Where a crew's request stands, said for the whole crew rather than its first pro: the lead's own
 * word while nobody has a pro yet, once cancelled and once paid; otherwise how many pros are found,
 * on the way, on site and finished, the one verification, and the bill.
 */
export function crewNowOf(
  view: Pick<TrackedRequestView, 'jobState' | 'status' | 'verification' | 'invoice' | 'workerCount'>,
  crew: readonly Pick<CrewMemberView, 'jobState' | 'worker'>[],
  lead: TrackingNow,
): TrackingNow {
  const held = crew.filter((member) => member.worker && member.jobState !== 'cancelled');
  if (view.jobState === 'cancelled' || view.invoice?.paymentStatus === 'paid' || held.length === 0) return lead;
  if (view.status === 'Completed' && view.verification.pending && crewFinished(crew)) {
    return { tone: 'warning', headline: "Please verify the crew's work", lines: [`All ${held.length} pros have finished.`] };
  }
  if (view.verification.status === 'approved') return { tone: 'info', headline: 'Work approved', lines: ["Your bill below gathers every pro's invoice."] };
  const count = (states: readonly string[]) => held.filter((member) => states.includes(member.jobState)).length;
  const coming = count(COMING);
  const onSite = count(ON_SITE);
  const finished = count(FINISHED);
  const headline =
    held.length < crew.length
      ? `${held.length} of ${crew.length} pros found`
      : onSite > 0
        ? 'Your crew is working on it'
        : coming > 0
          ? 'Your crew is on the way'
          : 'Your crew has finished';
  const parts = [
    coming > 0 ? `${coming} on the way` : null,
    onSite > 0 ? `${onSite} on site` : null,
    finished > 0 ? `${finished} finished` : null,
  ].filter((part): part is string => part !== null);
  return { tone: 'info', headline, lines: parts.length > 0 ? [`${parts.join(', ')}.`] : [] };
}
