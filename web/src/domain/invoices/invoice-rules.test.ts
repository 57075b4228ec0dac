import { describe, expect, it } from 'vitest';
import type { InvoiceSummary, WorkVerificationView } from '../../../../shared/schemas/invoice';
import type { ServiceRequestView } from '../../../../shared/schemas/job';
import { ApiError, apiErrorFrom } from '../../lib/api';
import { queryKeyUrl } from '../../lib/endpoint';
import { queryKeys } from '../../lib/query-keys';
import {
  estimateBesideInvoice,
  invoiceFeeLines,
  INVOICE_NOT_FOUND,
  NO_CHECKOUT_URL,
  SUBMIT_VERIFICATION_FAILED,
  VERIFY_FAILED,
  canVerifyInvoice,
  checkoutUrlOf,
  completedHeadline,
  invoiceLoadProblem,
  isStale,
  payButtonOf,
  paymentDetailLabel,
  paymentFailureText,
  paymentTone,
  requestInvoicePromptOf,
  verificationFailureText,
  verificationStateText,
} from './invoice-rules';

const refusal = (status: number, message: string) => apiErrorFrom(status, 'Conflict', JSON.stringify({ error: 'Conflict', message }));

describe('query keys', () => {
  it('name the URLs the server answers', () => {
    expect(queryKeyUrl(queryKeys.invoice('inv_1'))).toBe('/api/invoices/inv_1');
    expect(queryKeyUrl(queryKeys.requestInvoice('job-9'))).toBe('/api/requests/job-9/invoice');
  });

  it('encodes ids so a strange one cannot change the path', () => {
    expect(queryKeyUrl(queryKeys.invoice('a/b'))).toBe('/api/invoices/a%2Fb');
  });
});

describe('canVerifyInvoice', () => {
  it('offers Verify Work to the customer while the work is not verified', () => {
    expect(canVerifyInvoice({ workVerified: false, payoutStatus: null })).toBe(true);
  });

  it('stops offering it once verified', () => {
    expect(canVerifyInvoice({ workVerified: true, payoutStatus: null })).toBe(false);
  });

  it("never offers it on the worker's or the owner's view, which carry a payout status", () => {
    expect(canVerifyInvoice({ workVerified: false, payoutStatus: 'unpaid' })).toBe(false);
  });

  it('never offers it to someone following the job by its link', () => {
    expect(canVerifyInvoice({ workVerified: false, payoutStatus: null }, 'link')).toBe(false);
  });
});

describe('verificationStateText', () => {
  it('says "Pending Verification" until the customer verifies', () => {
    expect(verificationStateText(false)).toBe('Pending Verification');
    expect(verificationStateText(true)).toBe('Work Verified');
  });
});

describe('payButtonOf', () => {
  const verified = { paymentStatus: 'pending', totalAmount: 15750, workVerified: true } as const;

  it('offers to pay the total while pending and verified', () => {
    expect(payButtonOf(verified, false)).toEqual({ label: 'Pay $157.50', disabled: false });
  });

  it('says "Creating Payment..." and is disabled while the checkout call runs', () => {
    expect(payButtonOf(verified, true)).toEqual({ label: 'Creating Payment...', disabled: true });
  });

  it('is disabled once processing or paid, whatever our own call does', () => {
    expect(payButtonOf({ ...verified, paymentStatus: 'processing', totalAmount: 100 }, false)).toEqual({ label: 'Processing...', disabled: true });
    expect(payButtonOf({ ...verified, paymentStatus: 'paid', totalAmount: 100 }, true)).toEqual({ label: 'Paid', disabled: true });
  });

  it('lets a failed payment be tried again', () => {
    expect(payButtonOf({ ...verified, paymentStatus: 'failed', totalAmount: 2500 }, false)).toEqual({ label: 'Pay $25.00', disabled: false });
  });

  it('says the work must be verified first while it is not', () => {
    expect(payButtonOf({ ...verified, workVerified: false }, false)).toEqual({ label: 'Verify the work first', disabled: true });
  });

  it('tells someone holding the tracking link to pay from the device the booking was made with', () => {
    expect(payButtonOf(verified, false, 'link')).toEqual({ label: 'Pay from the device you booked with', disabled: true });
    expect(payButtonOf({ ...verified, paymentStatus: 'paid' }, false, 'link')).toEqual({ label: 'Paid', disabled: true });
  });
});

describe('payment labels', () => {
  it('capitalises the detail status', () => {
    expect(paymentDetailLabel('processing')).toBe('Processing');
  });

  it('colours the list labels: paid green, pending amber, failed red', () => {
    expect(['paid', 'completed', 'pending', 'processing', 'failed'].map(paymentTone)).toEqual(['green', 'green', 'amber', 'blue', 'red']);
  });
});

describe('checkoutUrlOf', () => {
  it('returns the checkout page to go to', () => {
    expect(checkoutUrlOf({ url: 'https://checkout.stripe.com/c/pay/cs_test_1' })).toBe('https://checkout.stripe.com/c/pay/cs_test_1');
  });

  it('throws "Failed to create payment session" without one', () => {
    expect(() => checkoutUrlOf({ url: '' })).toThrow(NO_CHECKOUT_URL);
    expect(() => checkoutUrlOf(null)).toThrow(NO_CHECKOUT_URL);
  });
});

describe('paymentFailureText', () => {
  it("shows the server's reason for a refusal", () => {
    expect(paymentFailureText(refusal(409, 'Please verify the work before paying.'))).toBe('Please verify the work before paying.');
  });

  it('says the payment process could not start when the server gave no reason', () => {
    expect(paymentFailureText(apiErrorFrom(502, 'Bad Gateway', ''))).toBe('Could not start payment process');
  });

  it('passes on the missing-session error and covers a call that never got through', () => {
    expect(paymentFailureText(new Error(NO_CHECKOUT_URL))).toBe(NO_CHECKOUT_URL);
    expect(paymentFailureText(new TypeError('Failed to fetch'))).toBe('Failed to initiate payment. Please try again.');
  });
});

describe('verificationFailureText', () => {
  it("prefers the server's reason, then the screen's own fallback", () => {
    expect(verificationFailureText(refusal(409, 'This invoice is already verified.'))).toBe('This invoice is already verified.');
    expect(verificationFailureText(new TypeError('Failed to fetch'))).toBe(VERIFY_FAILED);
    expect(verificationFailureText(apiErrorFrom(500, 'Internal Server Error', ''), SUBMIT_VERIFICATION_FAILED)).toBe(SUBMIT_VERIFICATION_FAILED);
  });
});

describe('isStale', () => {
  it('treats 404 and 409 as out of date, other failures not', () => {
    expect(isStale(refusal(404, 'gone'))).toBe(true);
    expect(isStale(refusal(409, 'paid'))).toBe(true);
    expect(isStale(refusal(500, 'oops'))).toBe(false);
    expect(isStale(new Error('x'))).toBe(false);
  });
});

describe('invoiceLoadProblem', () => {
  it('says "Invoice not found" for a 404, with nothing to retry', () => {
    expect(invoiceLoadProblem(refusal(404, 'Invoice not found'))).toEqual({ message: INVOICE_NOT_FOUND, detail: null, retry: false });
  });

  it('says why any other load failed and lets it be retried', () => {
    expect(invoiceLoadProblem(new ApiError(500, '500: ', null))).toEqual({
      message: 'Could not load the invoice',
      detail: 'The server answered 500.',
      retry: true,
    });
    expect(invoiceLoadProblem(new TypeError('Failed to fetch')).detail).toBe('The server could not be reached. Check your connection.');
  });
});

describe('requestInvoicePromptOf', () => {
  const quiet: WorkVerificationView = { pending: false, workHours: null, status: null, notes: null, at: null, message: '' };
  const invoice: InvoiceSummary = {
    id: 'inv_abcdefgh12345678',
    invoiceNumber: '12345678',
    laborHours: 2.5,
    hourlyRate: 4500,
    materialsCost: 4500,
    rushFee: 0,
    transactionFee: 0,
    estimatedTotal: null,
    totalAmount: 15750,
    platformFee: 1575,
    workerShare: 14175,
    feePercent: 10,
    paymentStatus: 'pending',
    workVerified: false,
    paidAt: null,
  };
  type Input = Pick<ServiceRequestView, 'status' | 'verification' | 'invoice'>;
  const completed: Input = { status: 'Completed', verification: quiet, invoice: null };

  it('asks the customer to verify a completed job, with the recorded hours', () => {
    // Prepare
    const request: Input = { ...completed, verification: { ...quiet, pending: true, workHours: 2.5 } };

    // Act
    const prompt = requestInvoicePromptOf(request);

    // Assess
    expect(prompt).toEqual({ verify: { workHours: 2.5 }, awaitingInvoice: false, rejected: null, invoice: null });
  });

  it('says the invoice is on its way once the work is approved', () => {
    expect(requestInvoicePromptOf({ ...completed, verification: { ...quiet, status: 'approved' } }).awaitingInvoice).toBe(true);
  });

  it('shows the notes of rejected work while the worker resumes it', () => {
    const request: Input = { status: 'In Progress', verification: { ...quiet, status: 'rejected', notes: 'The tap still drips' }, invoice: null };
    expect(requestInvoicePromptOf(request).rejected).toEqual({ notes: 'The tap still drips' });
  });

  it("offers the invoice with its number, total and the list's payment label", () => {
    // Prepare
    const request: Input = { ...completed, verification: { ...quiet, status: 'approved' }, invoice: { ...invoice, paymentStatus: 'paid' } };

    // Act
    const prompt = requestInvoicePromptOf(request);

    // Assess
    expect(prompt.invoice).toEqual({ id: invoice.id, number: '12345678', total: 15750, label: 'Paid', tone: 'green' });
    expect(prompt.awaitingInvoice).toBe(false);
    expect(prompt.verify).toBeNull();
  });

  it('asks nothing of a request that is not completed', () => {
    expect(requestInvoicePromptOf({ status: 'In Progress', verification: { ...quiet, pending: true }, invoice: null })).toEqual({
      verify: null,
      awaitingInvoice: false,
      rejected: null,
      invoice: null,
    });
  });
});

describe('completedHeadline', () => {
  it('says an invoice is available only once there is one', () => {
    // Prepare
    const invoice: InvoiceSummary = {
      id: 'i',
      invoiceNumber: 'I',
      laborHours: 0.1,
      hourlyRate: 10,
      materialsCost: 0,
      rushFee: 0,
      transactionFee: 0,
      estimatedTotal: null,
      totalAmount: 1,
      platformFee: 0,
      workerShare: 1,
      feePercent: 10,
      paymentStatus: 'pending',
      workVerified: true,
      paidAt: null,
    };

    // Act + Assess
    expect(completedHeadline({ invoice: null })).toBe('Service completed');
    expect(completedHeadline({ invoice })).toBe('Service completed - invoice available');
  });
});

describe('the fees an invoice adds', () => {
  it('lists the as-soon-as-possible fee and the card processing when charged', () => {
    expect(invoiceFeeLines({ rushFee: 2500, transactionFee: 570 })).toEqual([
      { label: 'As-soon-as-possible fee', cents: 2500 },
      { label: 'Card processing', cents: 570 },
    ]);
  });

  it('lists neither for a chosen time on a crew line', () => {
    expect(invoiceFeeLines({ rushFee: 0, transactionFee: 0 })).toEqual([]);
  });
});

describe('the estimate beside an invoice', () => {
  it('prefers the invoice\'s own estimate', () => {
    expect(estimateBesideInvoice({ estimatedTotal: 14189 }, 9999)).toBe(14189);
  });

  it('falls back to the job\'s estimate, else none', () => {
    expect(estimateBesideInvoice({ estimatedTotal: null }, 9999)).toBe(9999);
    expect(estimateBesideInvoice({ estimatedTotal: null }, null)).toBeNull();
  });
});
