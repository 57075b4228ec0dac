import { describe, expect, it } from 'vitest';
import { estimateLines, requestedInstant, toLocalInput, whenLimits } from './estimate';

const estimate = { baseAmount: 11250, rushFee: 2500, platformFee: 1375, transactionFee: 439, totalCost: 14189, hours: 2.5, hourlyRate: 4500 };

describe('the When choice', () => {
  it('sends null for as soon as possible', () => {
    expect(requestedInstant({ asap: true })).toBeNull();
  });

  it('sends the instant a local date and time names', () => {
    const at = new Date(2026, 2, 11, 9, 0);

    expect(requestedInstant({ asap: false, local: toLocalInput(at) })).toBe(at.toISOString());
  });

  it('sends nothing until the date and time are complete', () => {
    expect(requestedInstant({ asap: false, local: '' })).toBeUndefined();
  });

  it('offers from now to 14 days ahead', () => {
    const now = new Date(2026, 5, 1, 8, 30).getTime();

    expect(whenLimits(now)).toEqual({ min: '2026-06-01T08:30', max: '2026-06-15T08:30' });
  });
});

describe('the estimate breakdown', () => {
  it('adds labour, rush and card fee to the total, and shows the platform fee as the pro share', () => {
    const lines = estimateLines(estimate, 10);

    expect(lines.map((l) => l.label)).toEqual([
      'Labour (2.5 h at $45.00/h)',
      'As-soon-as-possible fee',
      'Card processing',
      'Estimated total',
      'Platform fee (10%), paid by the pro out of the labour',
    ]);
    expect(lines[3]!.amount).toBe('$141.89');
  });

  it('has no rush line for a chosen time', () => {
    expect(estimateLines({ ...estimate, rushFee: 0 }, 10).map((l) => l.label)).not.toContain('As-soon-as-possible fee');
  });
});
