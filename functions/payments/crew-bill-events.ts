import { crewBillOf, type CrewBill } from './crew-bills';
import { requestUrl } from '../common/page-links';
import type { InvoiceItem } from './data/invoices';
import { jobsRepo } from '../jobs/data/jobs';
import { notify, publishToJob } from '../realtime/realtime';

/**
 * What a crew's bill tells the people concerned, apart from the bill itself so the calls that only
 * read or verify it load no realtime client.
 */

/**
 * A pro of the crew invoiced: the request's page hears it, and the customer is told once the last
 * pro has, when the bill is ready to verify and pay (an earlier line alone cannot be paid).
 */
export async function crewLineInvoiced(invoice: InvoiceItem): Promise<void> {
  if (!invoice.crewRequestId) return;
  const leadId = invoice.crewRequestId;
  // The same frame to the job's room and the request's (the lead's follows every pro): its requestId names the pro's job.
  const event = { requestId: invoice.jobId, workerId: invoice.workerId, invoice: { id: invoice.id, totalAmount: invoice.totalAmount, laborHours: invoice.laborHours } };
  await Promise.all([publishToJob(invoice.jobId, 'invoice_created', event), leadId !== invoice.jobId ? publishToJob(leadId, 'invoice_created', event) : null]);
  const lead = await jobsRepo.findById(leadId);
  if (!lead) return;
  const bill = await crewBillOf(lead);
  // Told when this line completed the bill (two pros invoicing at the same instant may both tell it).
  if (bill.status !== 'to_verify' || !bill.lines.some((l) => l.id === invoice.id)) return;
  await notify('customer', invoice.customerId, {
    type: 'payment_received',
    title: 'Bill ready',
    message: `Every pro has sent their invoice: your bill of $${(bill.total / 100).toFixed(2)} is ready to verify and pay.`,
    priority: 'high',
    actionUrl: requestUrl(leadId),
    jobId: leadId,
  });
}

/** The bill is paid: the customer hears once (for the whole bill), each pro of their own share. */
export async function crewBillPaid(bill: CrewBill): Promise<void> {
  const { lead, lines } = bill;
  await Promise.all([
    publishToJob(lead.id, 'payment_completed', { requestId: lead.id, invoiceId: lines[0]?.id ?? lead.id, receiptSent: { email: Boolean(lead.customerEmail), sms: false } }),
    ...lines.map((line) =>
      notify('worker', line.workerId, {
        type: 'payment_received',
        title: 'Payment received',
        message: `The customer paid the crew's bill; your share is $${(line.workerShare / 100).toFixed(2)}.`,
        priority: 'medium',
        actionUrl: '/worker/earnings',
        jobId: line.jobId,
      }),
    ),
    notify('customer', lead.customerId, {
      type: 'payment_received',
      title: 'Payment complete',
      message: `Thank you: your payment of $${(bill.total / 100).toFixed(2)} went through. How did your pros do? Rate them.`,
      priority: 'low',
      actionUrl: `/rate/${encodeURIComponent(lead.id)}`,
      jobId: lead.id,
    }),
  ]);
}
