import { describe, expect, it } from 'vitest';
import type { CompletedJobView } from '../../../../shared/schemas/job';
import { paymentStateOf, payoutLabelOf, readyToInvoice, summarizeEarnings } from './earnings-summary';

const NOW = Date.parse('2030-01-15T12:00:00.000Z');

function job(id: string, endedAt: string, workerShare: number, money: Partial<CompletedJobView> = {}): CompletedJobView {
  return {
    id,
    category: 'plumbing',
    service: 'Plumbing',
    customerName: 'Ada',
    address: '1 Main St',
    hourlyRate: 5000,
    startedAt: null,
    endedAt,
    totalHours: 1,
    amount: workerShare + 500,
    workerShare,
    feePercent: 10,
    state: 'completed',
    canInvoice: false,
    invoiceId: null,
    paymentStatus: null,
    payoutStatus: null,
    ...money,
  };
}

describe('summarizeEarnings', () => {
  it('adds up the worker share of every completed job, not the full amount', () => {
    // Prepare
    const jobs = [job('a', '2030-01-14T10:00:00.000Z', 4500), job('b', '2029-12-01T10:00:00.000Z', 9000)];
    // Act
    const summary = summarizeEarnings(jobs, NOW);
    // Assess
    expect(summary.totalCents).toBe(13_500);
    expect(summary.jobsCompleted).toBe(2);
  });

  it('counts this week as the jobs that ended in the last 7 days', () => {
    // Prepare
    const jobs = [
      job('recent', '2030-01-09T12:00:00.000Z', 1000),
      job('older', '2030-01-08T11:59:59.000Z', 2000),
      job('today', '2030-01-15T11:00:00.000Z', 300),
    ];
    // Act
    const summary = summarizeEarnings(jobs, NOW);
    // Assess
    expect(summary.weekCents).toBe(1300);
  });

  it('lists the history newest first', () => {
    // Prepare
    const jobs = [job('old', '2030-01-01T10:00:00.000Z', 1), job('new', '2030-01-14T10:00:00.000Z', 1), job('mid', '2030-01-07T10:00:00.000Z', 1)];
    // Act
    const { history } = summarizeEarnings(jobs, NOW);
    // Assess
    expect(history.map((j) => j.id)).toEqual(['new', 'mid', 'old']);
  });

  it('answers zeros for a worker with no completed jobs', () => {
    expect(summarizeEarnings([], NOW)).toEqual({ totalCents: 0, weekCents: 0, paidCents: 0, jobsCompleted: 0, history: [] });
  });

  it('counts as paid only the shares of invoices the customer has paid', () => {
    // Prepare
    const jobs = [
      job('paid', '2030-01-14T10:00:00.000Z', 7200, { invoiceId: 'i1', paymentStatus: 'paid', payoutStatus: 'transferred' }),
      job('pending', '2030-01-13T10:00:00.000Z', 4500, { invoiceId: 'i2', paymentStatus: 'pending', payoutStatus: 'unpaid' }),
      job('approved', '2030-01-12T10:00:00.000Z', 900, { canInvoice: true }),
    ];
    // Act
    const summary = summarizeEarnings(jobs, NOW);
    // Assess
    expect(summary.paidCents).toBe(7200);
    expect(summary.totalCents).toBe(12_600);
  });
});

describe('readyToInvoice', () => {
  it('keeps the approved jobs without an invoice, longest waiting first', () => {
    // Prepare
    const jobs = [
      job('newer', '2030-01-14T10:00:00.000Z', 1, { canInvoice: true }),
      job('waiting', '2030-01-13T10:00:00.000Z', 1),
      job('older', '2030-01-10T10:00:00.000Z', 1, { canInvoice: true }),
      job('invoiced', '2030-01-09T10:00:00.000Z', 1, { invoiceId: 'i1', paymentStatus: 'pending' }),
    ];
    // Act
    const ready = readyToInvoice(jobs);
    // Assess
    expect(ready.map((j) => j.id)).toEqual(['older', 'newer']);
  });
});

describe('paymentStateOf', () => {
  it('says the customer has yet to approve a job that cannot be invoiced', () => {
    expect(paymentStateOf({ canInvoice: false, invoiceId: null, paymentStatus: null }).label).toBe('Awaiting approval');
  });

  it('offers invoicing once the customer approved the work', () => {
    expect(paymentStateOf({ canInvoice: true, invoiceId: null, paymentStatus: null }).label).toBe('Ready to invoice');
  });

  it('follows the invoice once there is one, in the invoice list’s words', () => {
    // Act
    const labels = (['pending', 'processing', 'paid', 'failed'] as const).map((paymentStatus) => paymentStateOf({ canInvoice: false, invoiceId: 'i1', paymentStatus }).label);
    // Assess
    expect(labels).toEqual(['Payment Pending', 'Processing', 'Paid', 'Payment Failed']);
  });

  it('treats a fresh invoice without a status yet as awaiting payment', () => {
    expect(paymentStateOf({ canInvoice: false, invoiceId: 'i1', paymentStatus: null }).label).toBe('Payment Pending');
  });

  it('colours paid green and failed red', () => {
    expect(paymentStateOf({ canInvoice: false, invoiceId: 'i1', paymentStatus: 'paid' }).tone).toBe('green');
    expect(paymentStateOf({ canInvoice: false, invoiceId: 'i1', paymentStatus: 'failed' }).tone).toBe('red');
  });
});

describe('payoutLabelOf', () => {
  it('says nothing about a payout before the customer pays', () => {
    expect(payoutLabelOf({ paymentStatus: 'pending', payoutStatus: 'unpaid' })).toBeNull();
    expect(payoutLabelOf({ paymentStatus: null, payoutStatus: null })).toBeNull();
  });

  it('names a paid job’s transfer or hold', () => {
    expect(payoutLabelOf({ paymentStatus: 'paid', payoutStatus: 'transferred' })).toBe('Transferred');
    expect(payoutLabelOf({ paymentStatus: 'paid', payoutStatus: 'held' })).toBe('Held until payouts are set up');
  });

  it('calls a paid job not yet transferred pending rather than held', () => {
    expect(payoutLabelOf({ paymentStatus: 'paid', payoutStatus: 'unpaid' })).toBe('Transfer pending');
  });
});
