import { describe, expect, it } from 'vitest';
import type { CrewBillView, InvoiceView } from '../../../../shared/schemas/views/invoice';
import { crewBillLines, crewBillStatusText, crewBillStep, crewMapPoints, crewMemberStateLabel, crewMemberTimeText } from './crew-display';
import { finishedMember, member, noTimes, searchingMember } from './crew-fixtures';

const NOW = Date.parse('2026-03-10T12:00:00Z');

function line(id: string, jobId: string, overrides: Partial<InvoiceView> = {}): InvoiceView {
  return {
    id,
    invoiceNumber: id.toUpperCase(),
    serviceRequestId: jobId,
    workerId: 'w',
    workerName: 'Sam Ortiz',
    customerName: 'Dana',
    service: 'Plumbing',
    location: '742 Evergreen Terrace',
    description: 'Pipes',
    laborHours: 2.5,
    hourlyRate: 4500,
    materialsCost: 0,
    rushFee: 1250,
    transactionFee: 0,
    totalAmount: 11250 + 1250,
    platformFee: 1250,
    workerShare: 11250,
    feePercent: 10,
    estimatedTotal: null,
    crewRequestId: 'job-1',
    notes: null,
    paymentStatus: 'pending',
    workVerified: false,
    workVerifiedAt: null,
    paidAt: null,
    payoutStatus: null,
    workerStripeAccountId: null,
    createdAt: '2026-03-10T13:00:00Z',
    ...overrides,
  };
}

describe("a crew pro's state", () => {
  it('says no pro is found yet while their place is being offered', () => {
    expect(crewMemberStateLabel(searchingMember(2))).toBe('No pro found yet');
  });

  it('says when a search for a place ended with nobody', () => {
    expect(crewMemberStateLabel({ ...searchingMember(2), dispatch: 'no_worker_available' })).toBe('No pro available');
  });

  it('names the step a pro is at', () => {
    expect([member(1), member(2, { jobState: 'in_progress' }), finishedMember(3)].map(crewMemberStateLabel)).toEqual(['On the way', 'Working', 'Finished']);
  });
});

describe("a crew pro's time line", () => {
  it('counts down to the arrival deadline while they are coming', () => {
    expect(crewMemberTimeText(member(2), NOW)).toMatch(/^Due by .+ \(20 min left\)$/);
  });

  it('says a pro past their deadline is running late', () => {
    expect(crewMemberTimeText(member(2, { arriveBy: '2026-03-10T11:50:00Z' }), NOW)).toMatch(/\(running late\)$/);
  });

  it('says when a pro arrived once they have', () => {
    expect(crewMemberTimeText(member(2, { jobState: 'in_progress', times: { ...noTimes, arrivedAt: '2026-03-10T12:05:00Z' } }), NOW)).toMatch(/^Arrived at /);
  });

  it('gives the hours worked once a pro finished', () => {
    expect(crewMemberTimeText(finishedMember(2), NOW)).toBe('2.5 hours worked');
  });

  it('says nothing of a place nobody holds', () => {
    expect(crewMemberTimeText(searchingMember(2), NOW)).toBeNull();
  });
});

describe("the crew's map", () => {
  it('marks only the pros whose position is known, each named by their place', () => {
    const crew = [member(1, { position: { lat: 37.77, lng: -122.41, at: '2026-03-10T11:59:00Z' } }), member(2)];

    expect(crewMapPoints(crew)).toEqual([{ key: 'pro-1', point: { lat: 37.77, lng: -122.41 }, label: 'Pro 1' }]);
  });
});

describe("the crew's bill", () => {
  const bill = (overrides: Partial<CrewBillView> = {}): CrewBillView => ({
    requestId: 'job-1',
    number: 'JOB00001',
    service: 'Plumbing',
    workerCount: 2,
    lines: [line('inv-2', 'job-2', { materialsCost: 800, totalAmount: 11250 + 1250 + 800 })],
    awaiting: [{ jobId: 'job-1', index: 1, workerName: 'Pro Person 1' }],
    subtotal: 13300,
    transactionFee: 416,
    totalAmount: 13716,
    platformFee: 1330,
    feePercent: 10,
    estimatedTotal: 28000,
    status: 'awaiting',
    verifiedAt: null,
    paidAt: null,
    ...overrides,
  });

  it('says how many pros have still to send their invoice', () => {
    expect(crewBillStatusText(bill())).toBe('Waiting for 1 pro to send their invoice');
    expect(crewBillStatusText(bill({ awaiting: [{ jobId: 'a', index: 1, workerName: null }, { jobId: 'b', index: 3, workerName: null }] }))).toBe(
      'Waiting for 2 pros to send their invoice',
    );
  });

  it('says when the bill was paid', () => {
    expect(crewBillStatusText(bill({ status: 'paid', awaiting: [], paidAt: '2026-03-10T15:00:00Z' }))).toMatch(/^Paid .+2026.+\.$/);
  });

  it('names each line by its pro\'s place, with the hours, rate, rush fee, materials and total', () => {
    const [first] = crewBillLines(bill(), [member(1), member(2)]);

    expect(first).toEqual({
      key: 'inv-2',
      title: 'Pro 2 · Sam Ortiz',
      labour: '2.5 h × $45.00/hr',
      labourAmount: '$112.50',
      rush: '$12.50',
      materials: '$8.00',
      total: '$133.00',
    });
  });

  it('offers Verify until verified, then Pay, and Pay again after a failed payment', () => {
    expect((['awaiting', 'to_verify', 'to_pay', 'processing', 'paid', 'failed'] as const).map((status) => crewBillStep({ status }))).toEqual([
      'none',
      'verify',
      'pay',
      'none',
      'none',
      'pay',
    ]);
  });
});
