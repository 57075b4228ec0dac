import { loadDetail } from '../../components/invoices/invoice-rules';

/** The Date column: the day the worker created the invoice; an unreadable value shows as a dash. */
export function invoiceDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '—' : date.toLocaleDateString(undefined, { dateStyle: 'medium' });
}

/** A list that did not load says so, and why (the server's message or its status). */
export function listLoadProblem(error: unknown): { message: string; detail: string } {
  return { message: 'Could not load the invoices', detail: loadDetail(error) };
}
