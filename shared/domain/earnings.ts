/**
 * What a completed job earns, in integer cents, with one configurable platform fee rate.
 * Billable time runs from Start Work to Complete Job, rounded up to the quarter hour, with a
 * one-hour call-out minimum as trades charge; shown with one decimal.
 */
const QUARTER_HOUR_MS = 15 * 60 * 1000;
export const MINIMUM_BILLABLE_HOURS = 1;

export function billableHours(startedAt: string | null, endedAt: string): number {
  const start = startedAt ? Date.parse(startedAt) : Number.NaN;
  const end = Date.parse(endedAt);
  if (!Number.isFinite(start) || !Number.isFinite(end) || end <= start) return MINIMUM_BILLABLE_HOURS;
  const quarters = Math.ceil((end - start) / QUARTER_HOUR_MS);
  return Math.max(MINIMUM_BILLABLE_HOURS, Math.round((quarters / 4) * 10) / 10);
}

/**
 * Hours after a round of rework: what was billed before plus the extra time, rounded up to the
 * quarter hour (no second call-out minimum: the worker was already called out).
 */
export function reworkedHours(priorHours: number, restartedAt: string | null, endedAt: string): number {
  const start = restartedAt ? Date.parse(restartedAt) : Number.NaN;
  const end = Date.parse(endedAt);
  const extra = Number.isFinite(start) && Number.isFinite(end) && end > start ? Math.ceil((end - start) / QUARTER_HOUR_MS) / 4 : 0;
  return Math.round((priorHours + extra) * 10) / 10;
}

/** hours x rate in cents, rounded to the cent. */
export function jobAmountCents(hours: number, hourlyRateCents: number): number {
  return Math.round(hours * hourlyRateCents);
}

/** The platform's fee on an amount, rounded to the cent. */
export function platformFeeCents(amountCents: number, feePercent: number): number {
  return Math.round((amountCents * feePercent) / 100);
}

export function workerShareCents(amountCents: number, feePercent: number): number {
  return amountCents - platformFeeCents(amountCents, feePercent);
}

/** "This week" means the last 7 days, not the calendar week. */
export function isWithinLastWeek(at: string, now = Date.now()): boolean {
  const t = Date.parse(at);
  return Number.isFinite(t) && now - t <= 7 * 24 * 60 * 60 * 1000 && t <= now;
}
