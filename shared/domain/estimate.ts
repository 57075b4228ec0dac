import { typicalHours, type JobSize } from '../job-sizes';
import type { CategorySlug } from '../categories';
import { MINIMUM_BILLABLE_HOURS, jobAmountCents, platformFeeCents } from './earnings';

/**
 * What a job is expected to cost, shown before the customer sends it and stored on the job.
 * Whole cents throughout.
 *
 * The split: the customer pays the pro's labour (base + rush) plus the card processing fee on
 * what they pay. The platform's fee is the one configured rate of the labour, as on the invoice,
 * and comes out of the pro's share: it is shown so the figures match the invoice, never added on
 * top of what the customer pays.
 */
export interface JobEstimate {
  /** Typical hours x the hourly rate: the pro's labour. */
  baseAmount: number;
  /** Added when the customer asks for a pro as soon as possible; none for a chosen time. */
  rushFee: number;
  /** The platform's fee rate of the labour (base + rush); out of the pro's share, not added. */
  platformFee: number;
  /** Card processing on what the customer pays. */
  transactionFee: number;
  /** What the customer is expected to pay: base + rush + transaction fee. */
  totalCost: number;
  /** The typical hours the base assumes. */
  hours: number;
  /** The hourly rate the base assumes, cents. */
  hourlyRate: number;
  /** The pros priced (base, rush and fees are for all of them); absent on estimates stored before crews: 1. */
  workerCount?: number;
}

/** The configured figures an estimate uses (functions/common/env.ts holds the deployed ones). */
export interface EstimateRates {
  /** The one platform fee rate, percent. */
  feePercent: number;
  /** Added to an as-soon-as-possible job, cents. */
  rushFeeCents: number;
  /** Card processing: a percentage of the charge plus a fixed amount per charge. */
  cardFeePercent: number;
  cardFeeFixedCents: number;
}

/** The deployed figures unless a stage sets RUSH_FEE_CENTS, CARD_FEE_PERCENT or CARD_FEE_FIXED_CENTS. */
export const estimateDefaults = { rushFeeCents: 25_00, cardFeePercent: 2.9, cardFeeFixedCents: 30 } as const;

/** How far ahead a customer may ask for a pro. */
export const MAX_REQUEST_AHEAD_DAYS = 14;
export const REQUESTED_TIME_MESSAGE = `Choose a time within the next ${MAX_REQUEST_AHEAD_DAYS} days`;

/**
 * Why a requested time cannot be taken, or null when it can: it must be an instant in the future
 * and no more than 14 days ahead.
 */
export function requestedTimeProblem(requestedTime: string, nowMs: number): string | null {
  const at = Date.parse(requestedTime);
  if (!Number.isFinite(at)) return `${REQUESTED_TIME_MESSAGE}: the time given is not a date and time.`;
  if (at <= nowMs) return `${REQUESTED_TIME_MESSAGE}: the time given has already passed.`;
  if (at > nowMs + MAX_REQUEST_AHEAD_DAYS * 24 * 60 * 60 * 1000) return `${REQUESTED_TIME_MESSAGE}: the time given is too far ahead.`;
  return null;
}

/** The middle rate (the mean of the two middle ones for an even count, rounded to the cent); null for none. */
export function medianRate(ratesCents: readonly number[]): number | null {
  if (ratesCents.length === 0) return null;
  const sorted = [...ratesCents].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : Math.round((sorted[mid - 1]! + sorted[mid]!) / 2);
}

/**
 * The card fee on what the customer pays, which includes the fee itself: the smallest whole-cent
 * fee such that the charge less the processor's cut still covers the amount.
 */
export function cardFeeCents(amountCents: number, percent: number, fixedCents: number): number {
  if (amountCents <= 0) return 0;
  const charge = Math.ceil((amountCents + fixedCents) / (1 - percent / 100));
  return charge - amountCents;
}

/**
 * The estimate for a job of `category` and `size` at `hourlyRateCents`; `asap` adds the rush fee.
 * Hours never go below the one-hour call-out minimum the invoice bills.
 *
 * For `workerCount` pros (a crew, default 1): each works the typical hours at the rate and each
 * rushes, so the base and the rush fee are N times one pro's; the platform's fee is the one rate of
 * all that labour; the customer pays it in ONE card charge, so the card fee (its fixed part
 * included) is taken once on the whole. `hours` and `hourlyRate` stay each pro's.
 */
export function estimateJob(
  input: { category: CategorySlug; size: JobSize; hourlyRateCents: number; asap: boolean; workerCount?: number },
  rates: EstimateRates,
): JobEstimate {
  const workerCount = Math.max(1, Math.round(input.workerCount ?? 1));
  const hours = Math.max(MINIMUM_BILLABLE_HOURS, typicalHours[input.category][input.size]);
  const hourlyRate = Math.max(0, Math.round(input.hourlyRateCents));
  const baseAmount = jobAmountCents(hours, hourlyRate) * workerCount;
  const rushFee = input.asap ? Math.max(0, Math.round(rates.rushFeeCents)) * workerCount : 0;
  const labour = baseAmount + rushFee;
  const platformFee = platformFeeCents(labour, rates.feePercent);
  const transactionFee = cardFeeCents(labour, rates.cardFeePercent, rates.cardFeeFixedCents);
  return { baseAmount, rushFee, platformFee, transactionFee, totalCost: labour + transactionFee, hours, hourlyRate, workerCount };
}

/** What the pro keeps of an estimate: the labour less the platform's fee. */
export function proShareCents(estimate: Pick<JobEstimate, 'baseAmount' | 'rushFee' | 'platformFee'>): number {
  return estimate.baseAmount + estimate.rushFee - estimate.platformFee;
}
