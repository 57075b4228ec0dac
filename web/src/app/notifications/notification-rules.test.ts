import { describe, expect, it } from 'vitest';
import { alertPlan, NOTIFICATION_TOAST_MS, relativeTime, safeActionHref } from './notification-rules';

describe('notification alerts', () => {
  it('keeps a toast up 3, 5, 8 and 12 s by priority', () => {
    // Act
    const durations = (['low', 'medium', 'high', 'critical'] as const).map(
      (priority) => alertPlan({ title: 'T', message: 'M', priority }, 'default').toast.duration,
    );

    // Assess
    expect(durations).toEqual([3000, 5000, 8000, 12000]);
    expect(NOTIFICATION_TOAST_MS.critical).toBe(12000);
  });

  it('sounds for high and critical only', () => {
    // Act
    const sounds = (['low', 'medium', 'high', 'critical'] as const).map((priority) => alertPlan({ title: 'T', message: 'M', priority }, 'granted').sound);

    // Assess
    expect(sounds).toEqual([false, false, true, true]);
  });

  it('shows a browser notification for critical, and only with permission', () => {
    // Act
    const granted = alertPlan({ title: 'T', message: 'M', priority: 'critical' }, 'granted');
    const denied = alertPlan({ title: 'T', message: 'M', priority: 'critical' }, 'denied');
    const unsupported = alertPlan({ title: 'T', message: 'M', priority: 'critical' }, 'unsupported');
    const high = alertPlan({ title: 'T', message: 'M', priority: 'high' }, 'granted');

    // Assess
    expect([granted, denied, unsupported, high].map((plan) => plan.browserNotification)).toEqual([true, false, false, false]);
    expect(granted.toast).toEqual({ title: 'T', description: 'M', duration: 12000, variant: 'destructive' });
  });

  it('treats an unknown priority as medium', () => {
    // Act
    const plan = alertPlan({ title: 'T', message: '', priority: 'urgent' as never }, 'granted');

    // Assess
    expect(plan.toast.duration).toBe(5000);
    expect(plan.toast.description).toBeUndefined();
    expect(plan.sound).toBe(false);
  });
});

describe('notification times and links', () => {
  const now = Date.parse('2026-03-10T12:00:00Z');

  it('says how long ago in words', () => {
    // Act
    const texts = ['2026-03-10T11:59:40Z', '2026-03-10T11:55:00Z', '2026-03-10T09:00:00Z', '2026-03-09T12:00:00Z', '2026-02-20T12:00:00Z', 'garbage'].map(
      (iso) => relativeTime(iso, now, 'en'),
    );

    // Assess
    expect(texts).toEqual(['just now', '5 minutes ago', '3 hours ago', 'yesterday', '3 weeks ago', 'garbage']);
  });

  it('links only to this site or to http(s) addresses', () => {
    // Act
    const results = ['/worker/jobs/abc', 'https://stripe.com/x', 'javascript:alert(1)', '//evil.example', '/\\evil', 'data:text/html,x', '', null].map(safeActionHref);

    // Assess
    expect(results).toEqual([
      { kind: 'internal', href: '/worker/jobs/abc' },
      { kind: 'external', href: 'https://stripe.com/x' },
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
  });
});
