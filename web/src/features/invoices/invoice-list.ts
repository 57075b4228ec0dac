import { loadDetail } from '../../domain/invoices/invoice-rules';
import { formatDateTime } from '../../lib/date-time';

/** The Date column: the day the worker created the invoice; an unreadable value shows as a dash. */
export function invoiceDate(iso: string): string {
  return formatDateTime(iso, 'date') ?? '—';
}

/** A list that did not load says so, and why (the server's message or its status). */
export function listLoadProblem(error: unknown): { message: string; detail: string } {
  return { message: 'Could not load the invoices', detail: loadDetail(error) };
}
