import type { InvoiceItem, JobItem } from '../../../../shared/entities';
import type { MailMessage } from '../message';

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
      `Your ${job.service} request for ${job.address} is in. Its number is ${job.id.slice(-8).toUpperCase()}.`,
      `${when} Follow it, and see your pro on the way, on its page: it works on any device.`,
    ],
    action: { label: 'Track your request', path: `/track?id=${encodeURIComponent(job.id)}` },
  };
}

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

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
      `${invoice.workerName} sent the invoice for your ${invoice.service} job, #${invoice.id.slice(-8).toUpperCase()}: ${dollars(invoice.totalAmount)}, for ${charges.join(', ')}.`,
      'You can check it and pay it by card on your request\'s page.',
    ],
    action: { label: 'View and pay the invoice', path: `/track?id=${encodeURIComponent(invoice.jobId)}` },
  };
}
