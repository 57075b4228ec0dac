import type { CrewBillView } from '../../../../shared/schemas/views/invoice';
import type { CrewMemberView } from '../../../../shared/schemas/views/job';
import { formatDateTime } from '../../lib/date-time';
import { formatHourlyRate, formatHours, formatMoney, hoursPhrase } from '../../lib/money';
import { FINISHED } from './crew';

// How each pro of a crew and the crew's one bill read on the request's page: loaded with the
// crew's section and bill, never with the page of a single pro.

/** "Pro 2": how the page names each place in the crew, whoever holds it. */
export function crewPlaceName(member: Pick<CrewMemberView, 'index'>): string {
  return `Pro ${member.index}`;
}

/** Where one pro of the crew stands, in a word or two. */
export function crewMemberStateLabel(member: Pick<CrewMemberView, 'jobState' | 'dispatch' | 'worker'>): string {
  if (member.jobState === 'cancelled') return 'Cancelled';
  if (!member.worker) return member.dispatch === 'no_worker_available' ? 'No pro available' : 'No pro found yet';
  switch (member.jobState) {
    case 'accepted':
      return 'Accepted';
    case 'en_route':
      return 'On the way';
    case 'arrived':
      return 'Arrived';
    case 'in_progress':
      return 'Working';
    case 'completed':
      return 'Finished';
    case 'verified':
      return 'Work verified';
    case 'paid':
      return 'Paid';
    default:
      return 'No pro found yet';
  }
}

/**
 * The line under a pro's state: the arrival deadline counting down while they are coming, when they
 * arrived once they have, the hours worked once they finished; null when there is nothing to add.
 */
export function crewMemberTimeText(
  member: Pick<CrewMemberView, 'jobState' | 'worker' | 'arriveBy' | 'times' | 'totalHours'>,
  now: number,
): string | null {
  if (!member.worker || member.jobState === 'cancelled') return null;
  if (member.totalHours !== null && FINISHED.includes(member.jobState)) return `${hoursPhrase(member.totalHours)} worked`;
  if (member.times.arrivedAt) return `Arrived at ${formatDateTime(member.times.arrivedAt, 'time') ?? member.times.arrivedAt}`;
  if (member.arriveBy && (member.jobState === 'accepted' || member.jobState === 'en_route')) {
    const at = Date.parse(member.arriveBy);
    if (!Number.isFinite(at)) return null;
    const by = formatDateTime(at, 'time');
    const minutes = Math.ceil((at - now) / 60_000);
    return minutes > 0 ? `Due by ${by} (${minutes} min left)` : `Due by ${by} (running late)`;
  }
  return null;
}

/** The pros on the crew's one map: those whose position is known, each named by their place. */
export function crewMapPoints(crew: readonly Pick<CrewMemberView, 'index' | 'position'>[]): { key: string; point: { lat: number; lng: number }; label: string }[] {
  return crew.flatMap((member) =>
    member.position ? [{ key: `pro-${member.index}`, point: { lat: member.position.lat, lng: member.position.lng }, label: crewPlaceName(member) }] : [],
  );
}

/** What the crew's bill says of where it stands. */
export function crewBillStatusText(bill: Pick<CrewBillView, 'status' | 'awaiting' | 'paidAt'>): string {
  switch (bill.status) {
    case 'awaiting': {
      const n = bill.awaiting.length;
      return `Waiting for ${n} ${n === 1 ? 'pro' : 'pros'} to send their invoice`;
    }
    case 'to_verify':
      return "Every pro has sent their invoice: check the lines, then verify the bill.";
    case 'to_pay':
      return 'Bill verified: ready to pay.';
    case 'processing':
      return 'Payment processing.';
    case 'paid': {
      const at = formatDateTime(bill.paidAt);
      return at ? `Paid ${at}.` : 'Paid.';
    }
    case 'failed':
      return 'The payment did not go through. You can pay again.';
    default:
      return '';
  }
}

export interface CrewBillLine {
  key: string;
  /** "Pro 2 · Sam Ortiz". */
  title: string;
  /** "2.5 h × $45.00/hr". */
  labour: string;
  labourAmount: string;
  rush: string | null;
  materials: string | null;
  total: string;
}

/**
 * A line per pro who invoiced, in crew order: labour, then the rush fee and materials when charged,
 * and the line's total. Each is named by its pro's place in the crew (from the request's crew, by
 * job), so a place left out of the bill does not renumber the others.
 */
export function crewBillLines(bill: Pick<CrewBillView, 'lines'>, crew: readonly Pick<CrewMemberView, 'jobId' | 'index'>[] | null): CrewBillLine[] {
  const places = new Map((crew ?? []).map((member) => [member.jobId, member.index]));
  return bill.lines.map((line, i) => ({
    key: line.id,
    title: `Pro ${places.get(line.serviceRequestId) ?? i + 1} · ${line.workerName}`,
    labour: `${formatHours(line.laborHours)} h × ${formatHourlyRate(line.hourlyRate)}`,
    labourAmount: formatMoney(line.totalAmount - line.rushFee - line.materialsCost - line.transactionFee),
    rush: line.rushFee > 0 ? formatMoney(line.rushFee) : null,
    materials: line.materialsCost > 0 ? formatMoney(line.materialsCost) : null,
    total: formatMoney(line.totalAmount),
  }));
}

/** Verify is offered once every pro invoiced and before the bill is verified; Pay once verified, and again after a failed payment. */
export function crewBillStep(bill: Pick<CrewBillView, 'status'>): 'verify' | 'pay' | 'none' {
  if (bill.status === 'to_verify') return 'verify';
  if (bill.status === 'to_pay' || bill.status === 'failed') return 'pay';
  return 'none';
}
