import { describe, expect, it } from 'vitest';
import { offlineBannerText } from './offline-status';

describe('the offline banner', () => {
  const now = new Date(2026, 10, 22, 16, 30);

  it('says when the jobs on screen were loaded, and that nothing can be answered', () => {
    const text = offlineBannerText(new Date(2026, 10, 22, 14, 5), now, 'en-US');

    expect(text.title).toBe('You are offline');
    expect(text.detail).toBe(
      'Showing your jobs as last loaded at 2:05 PM, read-only. Accepting, passing and clocking in or out need a connection.',
    );
  });

  it('names the day when they were loaded on another day', () => {
    const text = offlineBannerText(new Date(2026, 10, 20, 9, 0), now, 'en-US');

    expect(text.detail).toMatch(/^Showing your jobs as last loaded on Nov 20, 2026, 9:00\sAM, read-only\./);
  });

  it('says so when this device never loaded them', () => {
    expect(offlineBannerText(null, now)).toEqual({
      title: 'You are offline',
      detail: 'No jobs were saved on this device yet. Reconnect to see your offers and jobs.',
    });
  });
});
