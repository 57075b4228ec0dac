import type { LinkedRequest, RequestsLinkOpened } from '../../../../shared/schemas/requests-link';
import { formatDateTime } from '../../lib/date-time';

/** The secret of a requests link: `#token=<43 base64url characters>`, or null. */
export function tokenFromHash(hash: string): string | null {
  const token = new URLSearchParams(hash.replace(/^#/, '')).get('token');
  return token && /^[A-Za-z0-9_-]{43}$/.test(token) ? token : null;
}

const counted = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

type Gathered = Extract<RequestsLinkOpened, { here: true }>;

/** What the link brought to this browser, in words. */
export function gatheredSummary(answer: Pick<Gathered, 'gathered'>): string {
  const { requests, bookings, invoices } = answer.gathered;
  const moved = [
    requests ? counted(requests, 'request', 'requests') : null,
    bookings ? counted(bookings, 'booking', 'bookings') : null,
    invoices ? counted(invoices, 'invoice', 'invoices') : null,
  ].filter(Boolean);
  const brought = moved.length ? `We brought ${moved.join(', ')} here.` : 'Everything made with this address was here already.';
  return `${brought} They are listed under Your Requests in this browser from now on, with the requests it had before.`;
}

/** A request of the address as the confirmation names it: where (its street line) and when. */
export function linkedRequestLine(request: Pick<LinkedRequest, 'place' | 'createdAt'>): string {
  return `${request.place}, requested ${formatDateTime(request.createdAt, 'date') ?? request.createdAt}`;
}

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/** One request's line: its state, and its invoice when there is one. */
export function requestLine(request: Gathered['requests'][number]): string {
  const invoice = request.invoice ? ` Invoice ${dollars(request.invoice.totalAmount)}, ${request.invoice.paymentStatus === 'paid' ? 'paid' : 'to pay'}.` : '';
  return `${request.status}.${invoice}`;
}
