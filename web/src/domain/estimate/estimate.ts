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

/** The breakdown's lines, in the order a customer reads them; the platform fee is shown as included, not added. */
export function estimateLines(estimate: JobEstimate, feePercent: number | null): { label: string; amount: string }[] {
  const lines = [{ label: `Labour (${estimate.hours} h at ${formatMoney(estimate.hourlyRate)}/h)`, amount: formatMoney(estimate.baseAmount) }];
  if (estimate.rushFee > 0) lines.push({ label: 'As-soon-as-possible fee', amount: formatMoney(estimate.rushFee) });
  lines.push({ label: 'Card processing', amount: formatMoney(estimate.transactionFee) });
  lines.push({ label: 'Estimated total', amount: formatMoney(estimate.totalCost) });
  lines.push({
    label: `Platform fee${feePercent === null ? '' : ` (${feePercent}%)`}, paid by the pro out of the labour`,
    amount: formatMoney(estimate.platformFee),
  });
  return lines;
}
