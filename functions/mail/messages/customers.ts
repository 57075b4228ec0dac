import type { BookingItem, InvoiceItem, JobItem } from '../../../shared/entities';
import { invoiceNumber } from '../../../shared/domain/invoice';
import { requestNumber } from '../../../shared/domain/requests';
import { customerUrl, requestUrl } from '../../common/page-links';
import type { MailMessage } from '../message';
import { dollars } from './format';

/**
 * Mails to customers about their requests, bookings and payments. The links are the site's own
 * pages (web/src/lib/paths.ts has the same paths): the sender puts the site's origin before them.
 */

/** The server does not know the reader's time zone: the instant in UTC, which every reader can place. */
const startText = (start: string) => new Date(start).toUTCString().replace(' GMT', ' UTC');

/**
 * To the customer, when their request (or hire) is stored: received, what happens next, and the one
 * link that matters, its tracking page, which works on any device. None without an email address.
 */
export function requestReceived(
  job: Pick<JobItem, 'id' | 'kind' | 'customerName' | 'customerEmail' | 'service' | 'address' | 'requestedTime' | 'workerCount'>,
): MailMessage | null {
  if (!job.customerEmail) return null;
  const pros = job.workerCount && job.workerCount > 1 ? `${job.workerCount} pros` : 'a pro';
  const when = job.requestedTime
    ? `It is booked for ${startText(job.requestedTime)}: we offer it to ${pros} free then, from a day before.`
    : job.kind === 'hire'
      ? 'We have asked the pro you chose; if they cannot take it, we offer it to the nearest others.'
      : `We are offering it to ${pros} near you now.`;
  return {
    kind: 'request-received',
    subjectId: job.id,
    to: job.customerEmail,
    subject: `We received your ${job.service} request`,
    paragraphs: [
      `Hi ${job.customerName},`,
      `Your ${job.service} request for ${job.address} is in. Its number is ${requestNumber(job.id)}.`,
      `${when} Follow it, and see your pro on the way, on its page: it works on any device.`,
    ],
    action: { label: 'Track your request', path: requestUrl(job.id) },
  };
}


/**
 * To the customer, when a pro's invoice for their job is stored: what it charges, line by line, and
 * the job's page, where it is paid. None for a crew's line (the bill is told when every pro has
 * invoiced) or without an email address.
 */
export function invoiceReady(
  invoice: Pick<
    InvoiceItem,
    'id' | 'jobId' | 'customerName' | 'customerEmail' | 'service' | 'workerName' | 'laborHours' | 'hourlyRate' | 'materialsCost' | 'rushFee' | 'transactionFee' | 'totalAmount' | 'crewRequestId'
  >,
): MailMessage | null {
  if (!invoice.customerEmail || invoice.crewRequestId) return null;
  const charges = [
    `${invoice.laborHours.toFixed(1)} h of labour at ${dollars(invoice.hourlyRate)}/h`,
    ...(invoice.rushFee ? [`the as-soon-as-possible fee of ${dollars(invoice.rushFee)}`] : []),
    ...(invoice.materialsCost > 0 ? [`materials of ${dollars(invoice.materialsCost)}`] : []),
    ...(invoice.transactionFee ? [`card processing of ${dollars(invoice.transactionFee)}`] : []),
  ];
  return {
    kind: 'invoice-ready',
    subjectId: invoice.id,
    to: invoice.customerEmail,
    subject: `Your ${invoice.service} invoice is ready: ${dollars(invoice.totalAmount)}`,
    paragraphs: [
      `Hi ${invoice.customerName},`,
      `${invoice.workerName} sent the invoice for your ${invoice.service} job, #${invoiceNumber(invoice.id)}: ${dollars(invoice.totalAmount)}, for ${charges.join(', ')}.`,
      'You can check it and pay it by card on your request\'s page.',
    ],
    action: { label: 'View and pay the invoice', path: requestUrl(invoice.jobId) },
  };
}

/**
 * To the customer, when their booking (from /book) is stored: received, what happens next, and its
 * tracking page, by the booking's id (the link /book itself opens). None without an email address.
 */
export function bookingReceived(
  booking: Pick<BookingItem, 'id' | 'name' | 'email' | 'address' | 'requestedTime'>,
  service: string,
): MailMessage | null {
  if (!booking.email) return null;
  const when = booking.requestedTime
    ? `It is booked for ${startText(booking.requestedTime)}: we offer it to the pros free then, from a day before.`
    : 'We are offering it to the pros near you now.';
  return {
    kind: 'booking-received',
    subjectId: booking.id,
    to: booking.email,
    subject: `We received your ${service} booking`,
    paragraphs: [
      `Hi ${booking.name},`,
      `Your ${service} booking for ${booking.address} is in. Its number is ${requestNumber(booking.id)}.`,
      `${when} Follow it, and see your pro on the way, on its page: it works on any device.`,
    ],
    action: { label: 'Track your booking', path: requestUrl(booking.id) },
  };
}

const firstNameOf = (fullName: string) => fullName.trim().split(/\s+/)[0] || fullName;

/**
 * To the customer, when a pro accepts their job: who is coming (first name and rating), when they
 * must arrive (within the arrival grace for an as-soon-as-possible job, at its time for a
 * scheduled one) and the tracking page. A crew's customer gets one per pro. The subject is the job
 * and its dispatch cycle: a job that goes back to dispatch and is taken again is a new event, a
 * retried accept is not.
 */
export function proAssigned(
  job: Pick<JobItem, 'id' | 'customerName' | 'customerEmail' | 'service' | 'requestedTime' | 'arriveBy' | 'crew'>,
  pro: { fullName: string; rating: number | null; reviews: number },
  cycle: number,
  graceMinutes: number,
): MailMessage | null {
  if (!job.customerEmail) return null;
  const name = firstNameOf(pro.fullName);
  const rated = pro.rating !== null && pro.reviews > 0 ? `rated ${pro.rating.toFixed(1)} out of 5 by ${pro.reviews} customer${pro.reviews === 1 ? '' : 's'}` : 'new on Fixly, with no ratings yet';
  const who = job.crew && job.crew.size > 1 ? `${name} is one of your ${job.crew.size} pros for your ${job.service} request` : `${name} accepted your ${job.service} request`;
  const when = job.requestedTime
    ? `They will come at the time you booked, ${startText(job.requestedTime)}${job.arriveBy ? `, and must arrive by ${startText(job.arriveBy)}` : ''}.`
    : `They must arrive within ${graceMinutes} minutes${job.arriveBy ? `, by ${startText(job.arriveBy)}` : ''}.`;
  return {
    kind: 'pro-assigned',
    subjectId: `${job.id}:${cycle}`,
    to: job.customerEmail,
    subject: job.crew && job.crew.size > 1 ? `${name} is one of your ${job.service} pros` : `${name} is your ${job.service} pro`,
    paragraphs: [`Hi ${job.customerName},`, `${who} (${rated}).`, `${when} See them on the way on your request's page.`],
    action: { label: 'Track your pro', path: customerUrl(job) },
  };
}

/**
 * To the customer, when a search for a pro ended with nobody (the page shows "No worker
 * available"): their request's page, where Try again starts it afresh. The subject is the job and
 * its dispatch cycle: each search that ends with nobody is one event.
 */
export function noProFound(
  job: Pick<JobItem, 'id' | 'customerName' | 'customerEmail' | 'service' | 'crew'>,
  cycle: number,
): MailMessage | null {
  if (!job.customerEmail) return null;
  const crew = job.crew && job.crew.size > 1;
  return {
    kind: 'no-pro-found',
    subjectId: `${job.id}:${cycle}`,
    to: job.customerEmail,
    subject: `No pro was free for your ${job.service} request`,
    paragraphs: [
      `Hi ${job.customerName},`,
      crew
        ? `We asked every ${job.service} pro near you, and could not find one of the ${job.crew!.size} pros you asked for: nobody free accepted.`
        : `We asked every ${job.service} pro near you, and nobody free accepted your request.`,
      'Nothing is charged. Press Try again on your request\'s page to ask again: pros come on call all day.',
    ],
    action: { label: 'Try again', path: customerUrl(job) },
  };
}

/**
 * To the customer, when the work is complete (a crew's when the last of its pros completed):
 * verify it on their request's page, where Verify is. The subject is the request and its round of
 * rework: the work completed again after changes were asked for is a new event.
 */
export function workCompleted(
  job: Pick<JobItem, 'id' | 'customerName' | 'customerEmail' | 'service' | 'crew'>,
  hours: number | null,
  reworkRound: number,
): MailMessage | null {
  if (!job.customerEmail) return null;
  const crew = job.crew && job.crew.size > 1;
  const done = crew ? `Every pro of your ${job.service} request has marked the work complete` : `Your pro has marked your ${job.service} work complete`;
  return {
    kind: 'work-completed',
    subjectId: `${job.crew?.leadId ?? job.id}:${reworkRound}`,
    to: job.customerEmail,
    subject: `Your ${job.service} work is complete: please check it`,
    paragraphs: [
      `Hi ${job.customerName},`,
      `${done}${hours ? ` after ${hours.toFixed(1)} hours${crew ? ' in all' : ''}` : ''}.`,
      'Please check the work and verify it on your request\'s page, or ask for changes there. The invoice comes once you approve it.',
    ],
    action: { label: 'Verify the work', path: customerUrl(job) },
  };
}

/**
 * To the customer, when the last pro of a crew has invoiced, so the crew's one bill is complete:
 * its total and the request's page, where it is verified and paid. The subject is the request.
 */
export function billReady(
  lead: Pick<JobItem, 'id' | 'customerName' | 'customerEmail' | 'service'>,
  bill: { total: number; lines: number },
): MailMessage | null {
  if (!lead.customerEmail) return null;
  return {
    kind: 'bill-ready',
    subjectId: lead.id,
    to: lead.customerEmail,
    subject: `Your ${lead.service} bill is ready: ${dollars(bill.total)}`,
    paragraphs: [
      `Hi ${lead.customerName},`,
      `Every pro of your ${lead.service} request, #${requestNumber(lead.id)}, has sent their invoice: your bill comes to ${dollars(bill.total)} for ${bill.lines} pro${bill.lines === 1 ? '' : 's'}, card processing included.`,
      'You can check each pro\'s line and pay the bill by card on your request\'s page.',
    ],
    action: { label: 'View and pay the bill', path: requestUrl(lead.id) },
  };
}

/** A receipt's line: what one invoice (or a crew's line) charged for. */
type ReceiptLine = Pick<InvoiceItem, 'workerName' | 'laborHours' | 'hourlyRate' | 'rushFee' | 'materialsCost'>;

/** What Stripe charged, as its event says: the amount in the currency's smallest unit. */
export interface ChargedAmount {
  amountTotal: number;
  currency: string;
  paidAt: string;
}

const money = (cents: number, currency: string) =>
  currency.toLowerCase() === 'usd' ? dollars(cents) : `${(cents / 100).toFixed(2)} ${currency.toUpperCase()}`;

/**
 * To the customer, when Stripe's webhook records their payment: what was charged as Stripe charged
 * it (the session's amount and currency), line by line (labour, rush fee, materials, card
 * processing), the date, and the request's page. The subject is the invoice (a crew's bill: the
 * request), so a webhook delivered twice sends one receipt.
 */
export function receipt(
  paid: Pick<InvoiceItem, 'customerName' | 'customerEmail' | 'service' | 'jobId'> & { subjectId: string; requestId: string },
  lines: readonly ReceiptLine[],
  /** Card processing on the charge: one invoice's own fee, or a crew bill's one fee (its lines have none). */
  cardFee: number,
  charged: ChargedAmount,
): MailMessage | null {
  if (!paid.customerEmail) return null;
  const crew = lines.length > 1;
  const details = lines.map((l) => {
    const parts = [
      `${l.laborHours.toFixed(1)} h of labour at ${money(l.hourlyRate, charged.currency)}/h`,
      ...(l.rushFee ? [`the as-soon-as-possible fee of ${money(l.rushFee, charged.currency)}`] : []),
      ...(l.materialsCost > 0 ? [`materials of ${money(l.materialsCost, charged.currency)}`] : []),
    ];
    return `${crew ? `${l.workerName}: ` : ''}${parts.join(', ')}.`;
  });
  return {
    kind: 'receipt',
    subjectId: paid.subjectId,
    to: paid.customerEmail,
    subject: `Your receipt from Fixly: ${money(charged.amountTotal, charged.currency)}`,
    paragraphs: [
      `Hi ${paid.customerName},`,
      `Thank you: we received your card payment of ${money(charged.amountTotal, charged.currency)} for your ${paid.service} request #${requestNumber(paid.requestId)} on ${new Date(charged.paidAt).toUTCString().slice(0, 16)}.`,
      ...details,
      ...(cardFee > 0 ? [`Card processing: ${money(cardFee, charged.currency)}.`] : []),
      'Keep this mail as your receipt. The request\'s page shows the invoice any time.',
    ],
    action: { label: 'View your request', path: requestUrl(paid.requestId) },
  };
}
