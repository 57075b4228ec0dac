import { describe, expect, it } from 'vitest';
import { evidenceLines, formatMetres } from './strike-display';

describe('strike evidence', () => {
  it('words distances in metres under a kilometre and kilometres above', () => {
    expect(formatMetres(420.4)).toBe('420 m');
    expect(formatMetres(2140)).toBe('2.1 km');
  });

  it('says the deadline, where the last fix put the pro, and a claim left waiting', () => {
    const lines = evidenceLines({
      arriveBy: '2026-01-05T10:45:00.000Z',
      lastFix: { lat: 1, lng: 2, accuracy: 10, at: '2026-01-05T10:40:00.000Z', source: 'job' },
      distanceM: 2140,
      jobHasPosition: true,
      claim: { claimedAt: '2026-01-05T10:44:00.000Z', reason: 'too-far', distanceM: 900 },
    });

    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/shared on the way.*2\.1 km from the address/);
    expect(lines[2]).toMatch(/not proven \(the fix was too far from the address, 900 m away\)/);
  });

  it('says so when no position was shared', () => {
    const lines = evidenceLines({ arriveBy: '2026-01-05T10:45:00.000Z', lastFix: null, distanceM: null, jobHasPosition: false, claim: null });

    expect(lines).toContain('No position was shared before the deadline.');
    expect(lines).toContain('The job was a typed address without a map position.');
  });
});
