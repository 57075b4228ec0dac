import { invoiceNumber } from '../../shared/domain/invoice';
import type { InvoiceSummary, InvoiceView, WorkVerificationView } from '../../shared/schemas/invoice';
import type { InvoiceItem } from './data/invoices';
import type { JobItem } from '../jobs/data/jobs';

/** Who is looking at an invoice decides what of it they see: the customer never sees payout details. */
export type InvoiceViewer = 'customer' | 'worker' | 'owner';

export function toInvoiceView(invoice: InvoiceItem, viewer: InvoiceViewer): InvoiceView {
  const insider = viewer !== 'customer';
  return {
    id: invoice.id,
    invoiceNumber: invoiceNumber(invoice.id),
    serviceRequestId: invoice.jobId,
    workerId: invoice.workerId,
    workerName: invoice.workerName,
    customerName: invoice.customerName,
    service: invoice.service,
    location: invoice.location,
    description: invoice.description,
    laborHours: invoice.laborHours,
    hourlyRate: invoice.hourlyRate,
    materialsCost: invoice.materialsCost,
    rushFee: invoice.rushFee ?? 0,
    transactionFee: invoice.transactionFee ?? 0,
    totalAmount: invoice.totalAmount,
    platformFee: invoice.platformFee,
    workerShare: invoice.workerShare,
    feePercent: invoice.feePercent,
    estimatedTotal: invoice.estimatedTotal ?? null,
    crewRequestId: invoice.crewRequestId ?? null,
    notes: invoice.notes,
    paymentStatus: invoice.paymentStatus,
    workVerified: invoice.workVerified,
    workVerifiedAt: invoice.workVerifiedAt,
    paidAt: invoice.paidAt,
    payoutStatus: insider ? invoice.payoutStatus : null,
    workerStripeAccountId: insider ? invoice.payoutAccountId : null,
    createdAt: invoice.createdAt,
  };
}

export function toInvoiceSummary(invoice: InvoiceItem): InvoiceSummary {
  return {
    id: invoice.id,
    invoiceNumber: invoiceNumber(invoice.id),
    laborHours: invoice.laborHours,
    hourlyRate: invoice.hourlyRate,
    materialsCost: invoice.materialsCost,
    rushFee: invoice.rushFee ?? 0,
    transactionFee: invoice.transactionFee ?? 0,
    totalAmount: invoice.totalAmount,
    platformFee: invoice.platformFee,
    workerShare: invoice.workerShare,
    feePercent: invoice.feePercent,
    estimatedTotal: invoice.estimatedTotal ?? null,
    paymentStatus: invoice.paymentStatus,
    workVerified: invoice.workVerified,
    paidAt: invoice.paidAt,
  };
}

/** The work_completion_verification step of a request, as its customer sees it. */
export function toWorkVerification(job: JobItem): WorkVerificationView {
  const pending = job.state === 'completed';
  const status = job.verificationStatus ?? null;
  return {
    pending,
    workHours: job.totalHours,
    status,
    notes: job.verificationNotes ?? null,
    at: job.verificationAt ?? null,
    message: pending
      ? `The professional marked the work complete${job.totalHours ? ` after ${job.totalHours.toFixed(1)} hours` : ''}. Please verify the completed work.`
      : status === 'approved'
        ? 'You approved the work.'
        : status === 'rejected'
          ? 'You asked for changes; the professional is back on the job.'
          : '',
  };
}
