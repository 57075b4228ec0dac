import type { StrikeEvidence, StrikeStatus } from '../../../../shared/schemas/strikes';
import type { BadgeTone } from '../../components/ui/badge';
import { formatDateTime } from '../../lib/date-time';

/** How a strike's state is shown to the pro and the owner alike. */
export const strikeStatusLabels: Record<StrikeStatus, string> = {
  standing: 'Standing',
  appealed: 'Appeal pending',
  voided: 'Voided',
  upheld: 'Upheld',
};

export const strikeStatusTone: Record<StrikeStatus, BadgeTone> = {
  standing: 'orange',
  appealed: 'yellow',
  voided: 'green',
  upheld: 'red',
};

const claimReasons: Record<string, string> = {
  'no-job-position': 'the address had no map position',
  'no-fix': 'no usable location fix',
  'too-far': 'the fix was too far from the address',
};

/** Whole metres under a kilometre, then kilometres to one decimal. */
export function formatMetres(metres: number): string {
  return metres < 1000 ? `${Math.round(metres)} m` : `${(metres / 1000).toFixed(1)} km`;
}

/** The evidence of a strike, one sentence per fact, as both the pro and the owner read it. */
export function evidenceLines(evidence: StrikeEvidence): string[] {
  const lines = [`Arrival deadline: ${formatDateTime(evidence.arriveBy) ?? evidence.arriveBy}.`];
  const fix = evidence.lastFix;
  if (!fix) lines.push('No position was shared before the deadline.');
  else {
    const where = evidence.distanceM !== null ? `${formatMetres(evidence.distanceM)} from the address` : 'the address had no map position to measure from';
    const source = fix.source === 'job' ? 'shared on the way' : 'shared with dispatch';
    lines.push(`Last position (${source}, ${formatDateTime(fix.at) ?? fix.at}): ${where}.`);
  }
  if (!evidence.jobHasPosition) lines.push('The job was a typed address without a map position.');
  if (evidence.claim) {
    const distance = evidence.claim.distanceM !== null ? `, ${formatMetres(evidence.claim.distanceM)} away` : '';
    lines.push(
      `Mark Arrived was pressed at ${formatDateTime(evidence.claim.claimedAt) ?? evidence.claim.claimedAt} but not proven (${claimReasons[evidence.claim.reason] ?? evidence.claim.reason}${distance}); the customer did not confirm it in time.`,
    );
  }
  return lines;
}
