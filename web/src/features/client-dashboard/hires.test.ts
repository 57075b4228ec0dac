import { describe, expect, it } from 'vitest';
import type { InvoiceSummary } from '../../../../shared/schemas/invoice';
import type { ServiceRequestView } from '../../../../shared/schemas/job';
import { HIRES_POLL_MS, hireProgress, hiresPollInterval } from './hires';

type Progress = Parameters<typeof hireProgress>[0];
const pending: Progress = { status: 'Pending', jobState: 'offered', dispatch: 'searching', reassigned: false, invoice: null };

describe('hiresPollInterval', () => {
  it('polls every 5 s once the customer has a request', () => {
    expect(hiresPollInterval([{ id: 'r' } as ServiceRequestView])).toBe(HIRES_POLL_MS);
    expect(HIRES_POLL_MS).toBe(5000);
  });

  it('does not poll with no requests or before the first answer', () => {
    expect(hiresPollInterval([])).toBe(false);
    expect(hiresPollInterval(undefined)).toBe(false);
  });
});

describe('hireProgress', () => {
  it('says a pending request waits for a worker', () => {
    expect(hireProgress(pending)).toEqual(['Waiting for worker assignment']);
  });

  it('says when the first professional was late and the job went back to dispatch', () => {
    expect(hireProgress({ ...pending, reassigned: true })).toEqual([
      'Your professional did not arrive in time; we are finding another.',
      'Waiting for worker assignment',
    ]);
  });

  it('says no worker is available once dispatch gave up', () => {
    expect(hireProgress({ ...pending, dispatch: 'no_worker_available' })).toEqual(['No worker available']);
  });

  it('leaves an In Progress hire to its live tracking', () => {
    const accepted: Progress = { ...pending, status: 'In Progress', jobState: 'accepted', dispatch: 'assigned' };
    expect(hireProgress(accepted)).toEqual([]);
    expect(hireProgress({ ...accepted, jobState: 'en_route' })).toEqual([]);
  });

  it('says a completed hire is completed, and that its invoice is available once there is one', () => {
    // Prepare
    const completed: Progress = { ...pending, status: 'Completed', jobState: 'completed', dispatch: 'done' };
    const invoice: InvoiceSummary = {
      id: 'inv_1',
      invoiceNumber: 'INV_1',
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
      workVerified: true,
      paidAt: null,
    };

    // Act
    const before = hireProgress(completed);
    const after = hireProgress({ ...completed, jobState: 'verified', invoice });

    // Assess
    expect(before).toEqual(['Service completed']);
    expect(after).toEqual(['Service completed - invoice available']);
  });

  it('says a cancelled request is cancelled', () => {
    expect(hireProgress({ ...pending, jobState: 'cancelled' })).toEqual(['Cancelled']);
  });
});
