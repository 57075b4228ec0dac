import * as z from 'zod/mini';
import { isCategorySlug } from '../categories';
import { jobSizes } from '../job-sizes';
import { strictBody } from '../validation';
import { text } from './fields';

const latitude = z.number({ error: 'Latitude must be a number' }).check(
  z.gte(-90, 'Latitude must be between -90 and 90'),
  z.lte(90, 'Latitude must be between -90 and 90'),
);
const longitude = z.number({ error: 'Longitude must be a number' }).check(
  z.gte(-180, 'Longitude must be between -180 and 180'),
  z.lte(180, 'Longitude must be between -180 and 180'),
);

/** The job size a form sends; absent means medium (an older client). */
export const jobSizeField = z.optional(z.enum(jobSizes, { error: 'Choose a job size: small, medium or large' }));

/** How many pros of the trade the customer asks for; absent means one. */
export const MAX_WORKER_COUNT = 5;
export const WORKER_COUNT_MESSAGE = `Choose between 1 and ${MAX_WORKER_COUNT} pros`;
export const workerCountField = z.optional(
  z.number({ error: WORKER_COUNT_MESSAGE }).check(z.int(WORKER_COUNT_MESSAGE), z.gte(1, WORKER_COUNT_MESSAGE), z.lte(MAX_WORKER_COUNT, WORKER_COUNT_MESSAGE)),
);

export const ZONED_TIME_MESSAGE = 'Give the time with its time zone (for example 2026-12-01T10:00:00-06:00).';

/**
 * An ISO date and time that ends with its zone (Z or an offset): without one, the server would read
 * it in its own zone, which is nobody's. An empty string is as soon as possible, as older forms sent.
 */
export const zonedTime = z.regex(/^(?:|\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:[Zz]|[+-]\d{2}:?\d{2}))$/, ZONED_TIME_MESSAGE);

/** When the customer wants the pro: an ISO instant with its zone, absent or null for as soon as possible. */
export const requestedTimeField = z.optional(
  z.nullable(z.string({ error: 'requestedTime must be a date and time' }).check(z.maxLength(64, 'requestedTime is too long'), zonedTime)),
);

/**
 * POST /api/estimates: what a job would cost, before it is sent. Priced at the hired pro's rate
 * (workerId) or at the nearest available pros' (location; without one, any of the trade's).
 */
export const estimateInputSchema = strictBody({
  category: text('Choose a trade', z.minLength(1, 'Choose a trade'), z.refine(isCategorySlug, 'Choose one of our service categories')),
  size: z.enum(jobSizes, { error: 'Choose a job size: small, medium or large' }),
  location: z.optional(z.strictObject({ lat: latitude, lng: longitude })),
  workerId: z.optional(text('workerId must be text', z.minLength(1, 'workerId must not be empty'), z.maxLength(64, 'workerId is too long'))),
  requestedTime: requestedTimeField,
  workerCount: workerCountField,
});
export type EstimateInput = z.infer<typeof estimateInputSchema>;

/** The estimate's figures (cents; hours to one decimal) and when it was asked for. */
export const jobEstimateView = z.strictObject({
  baseAmount: z.number(),
  rushFee: z.number(),
  platformFee: z.number(),
  transactionFee: z.number(),
  totalCost: z.number(),
  hours: z.number(),
  hourlyRate: z.number(),
  /** The pros it prices: base, rush and fees are for all of them; hours and rate are each one's. */
  workerCount: z.number(),
});

/** POST /api/estimates' answer: the breakdown, the fee rate it used and the time it priced. */
export const estimateResult = z.strictObject({
  /** Null when no pro of the trade is free nearby to price it by; `unavailable` then says so. */
  estimate: z.nullable(jobEstimateView),
  unavailable: z.nullable(z.string()),
  feePercent: z.number(),
  requestedTime: z.nullable(z.string()),
});
export type EstimateResult = z.infer<typeof estimateResult>;
