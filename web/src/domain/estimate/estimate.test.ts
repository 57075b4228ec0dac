import { describe, expect, it } from 'vitest';
import { estimateLines, prosPhrase, requestedInstant, toLocalInput, whenLimits, workerCountOf } from './estimate';

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

  it('names the pros and each one\'s hours on the labour line of a crew', () => {
    const crew = { ...estimate, baseAmount: 27000, hours: 3, workerCount: 2 };

    const lines = estimateLines(crew, 10);

    expect(lines[0]!.label).toBe('Labour (2 pros × 3 h at $45.00/h)');
    expect(lines.map((l) => l.label)).toContain('Estimated total for 2 pros');
    expect(lines.map((l) => l.label)).toContain('As-soon-as-possible fee (2 pros)');
  });

  it('says nothing of a count for one pro', () => {
    const lines = estimateLines({ ...estimate, workerCount: 1 }, 10);

    expect(lines.map((l) => l.label).join(' ')).not.toMatch(/pros/);
  });

  it('reads an estimate stored before crews as one pro', () => {
    expect(workerCountOf({})).toBe(1);
  });
});

describe('the count of pros', () => {
  it('says one pro without a plural and several with one', () => {
    expect([prosPhrase(1), prosPhrase(3)]).toEqual(['1 pro', '3 pros']);
  });
});
