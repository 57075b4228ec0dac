import { MAX_REQUEST_AHEAD_DAYS, type JobEstimate } from '../../../../shared/domain/estimate';
import { formatMoney } from '../../lib/money';

/** The "When" choice: as soon as possible, or a date and time typed in the customer's own time zone. */
export type WhenChoice = { asap: true } | { asap: false; local: string };

const pad = (n: number) => String(n).padStart(2, '0');

/** A moment as a datetime-local input's value, in the browser's time zone. */
export function toLocalInput(at: Date): string {
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

/** The earliest and latest a customer may pick: from now to 14 days ahead. */
export function whenLimits(now: number): { min: string; max: string } {
  return { min: toLocalInput(new Date(now)), max: toLocalInput(new Date(now + MAX_REQUEST_AHEAD_DAYS * 24 * 60 * 60 * 1000)) };
}

/** What the form sends: null for as soon as possible, else the instant the local date and time name (undefined while unfinished). */
export function requestedInstant(when: WhenChoice): string | null | undefined {
  if (when.asap) return null;
  const at = new Date(when.local);
  return when.local && Number.isFinite(at.getTime()) ? at.toISOString() : undefined;
}

/** "2 pros" (a crew); one pro is said without a count. */
export function prosPhrase(count: number): string {
  return `${count} ${count === 1 ? 'pro' : 'pros'}`;
}

/** The pros an estimate prices: absent (an estimate stored before crews) is one. */
export function workerCountOf(estimate: Pick<JobEstimate, 'workerCount'>): number {
  return estimate.workerCount ?? 1;
}

/**
 * The breakdown's lines, in the order a customer reads them; the platform fee is shown as included,
 * not added. For a crew the hours and rate are each pro's, so the labour line names the count and
 * the total says whom it is for.
 */
export function estimateLines(estimate: JobEstimate, feePercent: number | null): { label: string; amount: string }[] {
  const count = workerCountOf(estimate);
  const crew = count > 1 ? `${prosPhrase(count)} × ` : '';
  const lines = [{ label: `Labour (${crew}${estimate.hours} h at ${formatMoney(estimate.hourlyRate)}/h)`, amount: formatMoney(estimate.baseAmount) }];
  if (estimate.rushFee > 0) lines.push({ label: count > 1 ? `As-soon-as-possible fee (${prosPhrase(count)})` : 'As-soon-as-possible fee', amount: formatMoney(estimate.rushFee) });
  lines.push({ label: 'Card processing', amount: formatMoney(estimate.transactionFee) });
  lines.push({ label: count > 1 ? `Estimated total for ${prosPhrase(count)}` : 'Estimated total', amount: formatMoney(estimate.totalCost) });
  lines.push({
    label: `Platform fee${feePercent === null ? '' : ` (${feePercent}%)`}, paid by the ${count > 1 ? 'pros' : 'pro'} out of the labour`,
    amount: formatMoney(estimate.platformFee),
  });
  return lines;
}
