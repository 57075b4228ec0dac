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

/**
 * Who the list is for, in the order the server identifies a caller: a signed-in pro (their bearer
 * token) first, then the owner (their session), else the customer of this browser.
 */
export type InvoiceAudience = 'pro' | 'owner' | 'customer';

export function invoiceAudience(signedInWorker: boolean, isOwner: boolean): InvoiceAudience {
  return signedInWorker ? 'pro' : isOwner ? 'owner' : 'customer';
}

export interface InvoicePageText {
  title: string;
  subtitle: string;
  emptyTitle: string;
  emptyText: string;
}

/** Each reader's own words: a pro sent these invoices, the owner oversees them, a customer pays them. */
export function invoicePageText(audience: InvoiceAudience): InvoicePageText {
  switch (audience) {
    case 'pro':
      return {
        title: 'Your invoices',
        subtitle: 'The invoices you sent for your jobs, what each customer pays and what you earn from it.',
        emptyTitle: 'No invoices yet',
        emptyText: 'Invoice a job once its customer approves the work; your invoices show here.',
      };
    case 'owner':
      return {
        title: 'All invoices',
        subtitle: 'Every invoice on Fixly, newest first: who sent it, what the customer pays and the platform fee.',
        emptyTitle: 'No invoices yet',
        emptyText: 'Pros send invoices after their customers approve the work; every one shows here.',
      };
    case 'customer':
      return {
        title: 'Invoices',
        subtitle: "Verify the work and pay your professionals' invoices.",
        emptyTitle: 'No invoices found',
        emptyText: 'Workers create invoices after completing a job; yours show here once they do.',
      };
  }
}

/** The owner's list asks for the page after its last invoice while the last page came back full. */
export function nextInvoicePage(lastPage: readonly { id: string }[], pageSize: number): string | undefined {
  return lastPage.length === pageSize ? lastPage[lastPage.length - 1]?.id : undefined;
}
