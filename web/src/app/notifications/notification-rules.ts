import type { NotificationView } from '../../../../shared/realtime';
import type { ToastInput } from '../../components/ui/toast-store';

/**
 * How a live notification speaks: a toast for as long as its priority
 * says, a short sound for high and critical, and a browser notification for critical when the
 * person has allowed them.
 */
export type Priority = NotificationView['priority'];

export const NOTIFICATION_TOAST_MS: Record<Priority, number> = {
  low: 3000,
  medium: 5000,
  high: 8000,
  critical: 12_000,
};

export interface AlertPlan {
  toast: ToastInput;
  sound: boolean;
  browserNotification: boolean;
}

export function alertPlan(item: Pick<NotificationView, 'title' | 'message' | 'priority'>, notificationPermission: NotificationPermission | 'unsupported'): AlertPlan {
  const priority: Priority = item.priority in NOTIFICATION_TOAST_MS ? item.priority : 'medium';
  return {
    toast: {
      title: item.title,
      description: item.message || undefined,
      duration: NOTIFICATION_TOAST_MS[priority],
      variant: priority === 'critical' ? 'destructive' : 'default',
    },
    sound: priority === 'high' || priority === 'critical',
    browserNotification: priority === 'critical' && notificationPermission === 'granted',
  };
}

const units: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** "just now", "5 minutes ago", "yesterday"…; the raw text when the time cannot be read. */
export function relativeTime(iso: string, now: number, locale?: string): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  const seconds = Math.round((at - now) / 1000);
  if (Math.abs(seconds) < 45) return 'just now';
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size || unit === 'minute') return format.format(Math.round(seconds / size), unit);
  }
  return format.format(seconds, 'second');
}

/**
 * Where an item's action link may go: a path of this site, or an http(s) address. Anything else
 * (javascript:, data:, a protocol-relative //host) is not a link at all.
 */
export function safeActionHref(url: string | null | undefined): { kind: 'internal' | 'external'; href: string } | null {
  if (!url) return null;
  const trimmed = url.trim();
  if (trimmed.startsWith('/') && !trimmed.startsWith('//') && !trimmed.startsWith('/\\')) return { kind: 'internal', href: trimmed };
  try {
    const parsed = new URL(trimmed);
    if (parsed.protocol === 'https:' || parsed.protocol === 'http:') return { kind: 'external', href: parsed.href };
  } catch {
    // Not a URL: no link.
  }
  return null;
}
