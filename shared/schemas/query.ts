import * as z from 'zod/mini';
import { categorySlugs } from '../categories';
import { documentStatuses, documentTypes, downloadModes } from './document-rules';
import { ID_PATTERN } from './id';
import { availableWorkersQuery, jobAdminFilters, jobAttentionPage } from './owner-jobs';
import { pageQueryFields } from './page';
import { workerStatuses } from './worker';
import { analyticsGroupings } from './views/analytics';

/**
 * Query strings: the schema of each route that reads one, by the name the manifest gives it
 * (shared/routes.ts `query`). The handler stack checks them before the handler runs (a 400 naming
 * the value to change), so a handler gets them typed: numbers as numbers, absent as undefined.
 * Keys a schema does not name are dropped, not refused: links carry parameters of their own.
 */

/** A value left empty ("?status=") means the same as one not sent. */
const blankAsAbsent = z.transform((value: string | undefined) => (value === '' ? undefined : value));

/** An optional choice from `options`; an empty value is no choice. */
const optionalChoice = <const T extends readonly [string, ...string[]]>(options: T, message: string) =>
  z.pipe(z.pipe(z.optional(z.string()), blankAsAbsent), z.optional(z.enum(options, { error: message })));

const optionalText = z.pipe(z.optional(z.string()), blankAsAbsent);

export const MIN_ADDRESS_QUERY_LENGTH = 3;
export const MAX_ADDRESS_QUERY_LENGTH = 200;

/** Trimmed, single-spaced, lower case: "  10  Main St" and "10 main st" are one cache entry. */
export function normaliseAddressQuery(raw: string): string {
  return raw.trim().replace(/\s+/g, ' ').toLowerCase();
}

const TOO_SHORT = `Type at least ${MIN_ADDRESS_QUERY_LENGTH} characters to search for an address.`;
const TOO_LONG = `Keep the address search under ${MAX_ADDRESS_QUERY_LENGTH} characters.`;

/** About a metre: finer than any address, coarse enough that a device's jitter hits the cache. */
const COORDINATE_DECIMALS = 5;

export function roundCoordinate(value: number): number {
  // `+ 0` turns -0 into 0, so "-0" never becomes a cache key of its own.
  return Number(value.toFixed(COORDINATE_DECIMALS)) + 0;
}

const decimal = /^-?\d{1,3}(\.\d+)?$/;

/** A latitude or longitude within ±limit, written as a plain decimal, rounded. */
const coordinate = (name: 'lat' | 'lng', limit: number, what: string) => {
  const message = `${name} must be a ${what} between -${limit} and ${limit}.`;
  return z.pipe(
    z.optional(z.string()),
    z.transform((raw: string | undefined, ctx) => {
      const value = raw !== undefined && decimal.test(raw.trim()) ? Number(raw.trim()) : Number.NaN;
      if (!Number.isFinite(value) || Math.abs(value) > limit) {
        ctx.issues.push({ code: 'custom', message, input: raw });
        return z.NEVER;
      }
      return roundCoordinate(value);
    }),
  );
};

/** The owner's invoice list is read a page at a time: the default and the most one page holds. */
export const INVOICE_PAGE_SIZE = 50;
export const MAX_INVOICE_PAGE = 100;
const INVOICE_LIMIT_MESSAGE = `limit must be a whole number from 1 to ${MAX_INVOICE_PAGE}.`;

/** A calendar day written yyyy-mm-dd that exists (no 2026-02-30). */
const isDay = (raw: string) => /^\d{4}-\d{2}-\d{2}$/.test(raw) && new Date(`${raw}T00:00:00Z`).toISOString().startsWith(raw);
const dayMessage = (name: string) => `${name} must be a date written yyyy-mm-dd, e.g. 2026-01-31.`;
const optionalDay = (name: string) =>
  z.pipe(z.pipe(z.optional(z.string()), blankAsAbsent), z.optional(z.string().check(z.refine(isDay, dayMessage(name)))));
const requiredDay = (name: string) => z.string({ error: dayMessage(name) }).check(z.refine(isDay, dayMessage(name)));

const MAX_KM_MESSAGE = 'maxKm must be a distance in kilometres, more than 0 and at most 1000.';

export const querySchemas = {
  /** The owner's job table (shared/schemas/owner-jobs.ts). */
  jobAdminFilters,
  jobAttentionPage,
  /** The pros the owner may offer a job to. */
  availableWorkersQuery,
  /** GET …/documents/{id}/download: view inline (the default) or download as a file. */
  documentDownload: z.object({
    mode: z._default(z.enum(downloadModes, { error: 'mode must be view or download' }), 'view'),
  }),
  /** The document lists' filters; an unknown status or type is refused naming the accepted ones. */
  documentFilters: z.object({
    status: optionalChoice(documentStatuses, `status must be one of ${documentStatuses.join(', ')}`),
    documentType: optionalChoice(documentTypes, `documentType must be one of ${documentTypes.join(', ')}`),
    categoryId: optionalText,
    workerId: optionalText,
  }),
  /** The owner's documents list: the same filters, a page at a time. */
  adminDocumentFilters: z.object({
    status: optionalChoice(documentStatuses, `status must be one of ${documentStatuses.join(', ')}`),
    documentType: optionalChoice(documentTypes, `documentType must be one of ${documentTypes.join(', ')}`),
    categoryId: optionalText,
    workerId: optionalText,
    ...pageQueryFields,
  }),
  /** The owner's pending applications (workers', companies'): a page at a time, oldest first. */
  applicationPage: z.object({ ...pageQueryFields }),
  /** The owner's compliance table: a page of workers at a time. */
  compliancePage: z.object({ ...pageQueryFields }),
  /** The worker list's filters: one trade, and "within" (only pros whose whole band lies within it). */
  workerProfiles: z.object({
    category: optionalChoice(categorySlugs, `category must be one of: ${categorySlugs.join(', ')}.`),
    maxKm: z.pipe(
      z.pipe(z.optional(z.string()), z.transform((raw: string | undefined) => (raw === undefined || raw === '' ? undefined : Number(raw)))),
      z.optional(z.number({ error: MAX_KM_MESSAGE }).check(z.gt(0, MAX_KM_MESSAGE), z.lte(1000, MAX_KM_MESSAGE))),
    ),
  }),
  /** GET /api/geocode: the address typed so far, normalised (the cache's key). */
  addressSearch: z.object({
    q: z.pipe(
      z.pipe(z.optional(z.string()), z.transform((raw: string | undefined) => normaliseAddressQuery(raw ?? ''))),
      z.string().check(z.minLength(MIN_ADDRESS_QUERY_LENGTH, TOO_SHORT), z.maxLength(MAX_ADDRESS_QUERY_LENGTH, TOO_LONG)),
    ),
  }),
  /** GET /api/geocode/reverse: a position, rounded to 5 decimals. */
  coordinates: z.object({
    lat: coordinate('lat', 90, 'latitude'),
    lng: coordinate('lng', 180, 'longitude'),
  }),
  /**
   * GET /api/invoices: one page of the owner's list of every invoice (a worker's or a customer's own
   * list is read whole). `after` is the id of the last invoice of the page before.
   */
  invoicePage: z.object({
    limit: z.pipe(
      z.pipe(z.optional(z.string()), z.transform((raw: string | undefined) => (raw === undefined || raw === '' ? undefined : Number(raw)))),
      z.optional(z.int({ error: INVOICE_LIMIT_MESSAGE }).check(z.gte(1, INVOICE_LIMIT_MESSAGE), z.lte(MAX_INVOICE_PAGE, INVOICE_LIMIT_MESSAGE))),
    ),
    after: z.pipe(
      z.pipe(z.optional(z.string()), blankAsAbsent),
      z.optional(z.string().check(z.regex(ID_PATTERN, 'after must be the id of an invoice.'))),
    ),
  }),
  /** GET /api/admin/workers/all: a page of workers, optionally of one status. */
  workerPage: z.object({
    ...pageQueryFields,
    status: optionalChoice(workerStatuses, `status must be one of ${workerStatuses.join(', ')}`),
  }),
  /** The owner's strike lists (a worker's record, the open appeals): a page at a time. */
  strikePage: z.object({ ...pageQueryFields }),
  /** GET /api/admin/analytics: a range of days (UTC, both included) grouped by day, week or month. */
  analyticsRange: z.object({
    from: optionalDay('from'),
    to: optionalDay('to'),
    by: z._default(z.pipe(z.pipe(z.optional(z.string()), blankAsAbsent), z.optional(z.enum(analyticsGroupings, { error: 'by must be day, week or month' }))), 'day'),
  }),
  /** The owner's CSV exports: a range of days (UTC, both included), both required. */
  exportRange: z.object({ from: requiredDay('from'), to: requiredDay('to') }),
  /** GET /api/admin/analytics/pros: a page of pros with their figures. */
  proFiguresPage: z.object({ ...pageQueryFields }),
  /** The payment-success page's Checkout session, when it names one. */
  paymentConfirmation: z.object({
    session_id: optionalText,
  }),
};
