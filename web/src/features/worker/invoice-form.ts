import { dollarsToCents, invoiceAmounts, type InvoiceAmounts } from '../../../../shared/domain/invoice';
import { createInvoiceSchema, type CreateInvoiceInput } from '../../../../shared/schemas/invoice';
import { validate } from '../../../../shared/validation';

/**
 * The invoice dialog's form (POST /api/jobs/{id}/invoice): what people type, checked with the
 * server's own schema, and the live preview from the same sums the server uses.
 */
export const invoiceFieldOrder = ['laborHours', 'materialsCost', 'notes'] as const;
export type InvoiceField = (typeof invoiceFieldOrder)[number];

export const INVOICE_NOTES_MAX = 1000;

/** As typed: number inputs hand back text, and an empty box must stay empty while editing. */
export interface InvoiceFormValues {
  laborHours: string;
  materialsCost: string;
  notes: string;
}

/** Starts from the billable hours the server recorded, so most invoices need no typing. */
export function initialInvoiceValues(totalHours: number | null): InvoiceFormValues {
  const hours = totalHours !== null && Number.isFinite(totalHours) && totalHours > 0 ? (Math.round(totalHours * 10) / 10).toFixed(1) : '';
  return { laborHours: hours, materialsCost: '', notes: '' };
}

/** Text to a number; blank is "not given" (undefined) and junk is NaN, which the schema refuses by name. */
function parseAmount(text: string): number | undefined {
  const trimmed = text.trim();
  return trimmed === '' ? undefined : Number(trimmed);
}

export type InvoiceFormResult = { ok: true; input: CreateInvoiceInput } | { ok: false; errors: Record<string, string> };

/**
 * The request body, checked with createInvoiceSchema. Blank materials mean none (0): a job
 * without parts is the common case and should not need a typed zero. Blank notes are left out.
 */
export function validateInvoice(values: InvoiceFormValues): InvoiceFormResult {
  const notes = values.notes.trim();
  const candidate = {
    laborHours: parseAmount(values.laborHours),
    materialsCost: parseAmount(values.materialsCost) ?? 0,
    ...(notes ? { notes } : {}),
  };
  const result = validate(createInvoiceSchema, candidate);
  return result.success ? { ok: true, input: result.data } : { ok: false, errors: placeInvoiceFields(result.fields) };
}

/** The form's own fields keep their messages; anything else (unknown fields, ids) goes to the top. */
export function placeInvoiceFields(fields: Record<string, string>): Record<string, string> {
  const placed: Record<string, string> = {};
  const other: string[] = [];
  for (const [key, message] of Object.entries(fields)) {
    if ((invoiceFieldOrder as readonly string[]).includes(key)) placed[key] = message;
    else if (!other.includes(message)) other.push(message);
  }
  if (other.length > 0) placed._ = other.join(' ');
  return placed;
}

/**
 * The running total while typing: hours x the job's agreed rate + materials, split by the one
 * configured fee (shared/domain/invoice.ts, as the server will compute it). Null while the hours
 * or materials cannot be read, so the screen shows a dash rather than a wrong figure.
 */
/**
 * What the invoice will say of the work, as the server computes it: labour, the job's rush fee and
 * materials, the platform fee and the pro's share. The card processing fee the customer pays on top
 * is the server's to add (it goes to the card processor, not to the pro or the platform).
 */
export function invoicePreview(values: InvoiceFormValues, hourlyRateCents: number, feePercent: number, rushCents = 0): InvoiceAmounts | null {
  const hours = parseAmount(values.laborHours);
  const materials = parseAmount(values.materialsCost) ?? 0;
  if (hours === undefined || !Number.isFinite(hours) || hours < 0) return null;
  if (!Number.isFinite(materials) || materials < 0) return null;
  return invoiceAmounts({ laborHours: hours, hourlyRateCents, rushCents, materialsCents: dollarsToCents(materials), feePercent });
}
