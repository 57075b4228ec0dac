import { Bell, RotateCw } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FocusEvent, type KeyboardEvent } from 'react';
import { Link } from 'react-router';
import type { NotificationView } from '../../../../shared/realtime';
import { cn } from '../../lib/cn';
import {
  badgeText,
  markAllNotificationsRead,
  markNotificationRead,
  reconnectRealtime,
  useNotifications,
  useRealtimeSnapshot,
  type RealtimeStatus,
} from '../../lib/realtime';
import { relativeTime, safeActionHref } from './notification-rules';
import { PushControl } from '../push';
import { formatDateTime } from '../../lib/date-time';

/**
 * The nav bar's realtime corner: the connection indicator
 * (Real-time / Reconnecting, or Offline with Reconnect once the attempts ran out) and the bell with
 * its unread badge and panel. Nothing at all while there is no socket to have (nobody signed in,
 * no request sent).
 */
export default function RealtimeNav() {
  const { status, wanted, gaveUp } = useRealtimeSnapshot();
  if (!wanted) return null;
  return (
    <div className="flex items-center gap-2">
      <ConnectionIndicator status={status} gaveUp={gaveUp} />
      <NotificationBell />
    </div>
  );
}

const indicator: Record<RealtimeStatus, { label: string; dot: string; text: string }> = {
  connected: { label: 'Real-time', dot: 'bg-green-400', text: 'text-green-200 ring-green-400/40' },
  reconnecting: { label: 'Reconnecting', dot: 'bg-amber-400 motion-safe:animate-pulse', text: 'text-amber-200 ring-amber-400/40' },
  offline: { label: 'Offline', dot: 'bg-red-400', text: 'text-red-200 ring-red-400/40' },
};

function ConnectionIndicator({ status, gaveUp }: { status: RealtimeStatus; gaveUp: boolean }) {
  const look = indicator[status];
  return (
    <div className="flex items-center gap-1.5">
      <p
        role="status"
        data-testid="realtime-status"
        data-status={status}
        className={cn('inline-flex items-center gap-1.5 rounded-full bg-slate-950/70 px-2.5 py-1 text-xs font-semibold ring-1', look.text)}
      >
        <span aria-hidden="true" className={cn('size-2 rounded-full', look.dot)} />
        {look.label}
      </p>
      {gaveUp ? (
        <button
          type="button"
          onClick={reconnectRealtime}
          className="inline-flex items-center gap-1 rounded-md px-2 py-1 text-xs font-semibold text-amber-300 hover:bg-white/10 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-300"
        >
          <RotateCw aria-hidden="true" className="size-3.5" />
          Reconnect
        </button>
      ) : null}
    </div>
  );
}

function NotificationBell() {
  const { items, unread } = useNotifications();
  const [open, setOpen] = useState(false);
  const container = useRef<HTMLDivElement>(null);
  const bell = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  const badge = badgeText(unread);

  const close = (returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) bell.current?.focus();
  };

  // A click anywhere else closes the panel (it is not modal: the page stays usable).
  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!container.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape' && open) {
      event.stopPropagation();
      close(true);
    }
  };
  // Tabbing out of the panel closes it, as a disclosure would.
  const onBlur = (event: FocusEvent<HTMLDivElement>) => {
    const next = event.relatedTarget as Node | null;
    if (open && next && !container.current?.contains(next)) setOpen(false);
  };

  return (
    <div ref={container} className="relative" onKeyDown={onKeyDown} onBlur={onBlur}>
      <button
        ref={bell}
        type="button"
        aria-label={unread ? `Notifications, ${unread} unread` : 'Notifications'}
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => setOpen((value) => !value)}
        className="relative inline-flex size-10 items-center justify-center rounded-md text-slate-100 hover:bg-white/10 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-300"
      >
        <Bell aria-hidden="true" className="size-5" />
        {badge ? (
          <span
            aria-hidden="true"
            data-testid="notification-badge"
            className="absolute -right-0.5 -top-0.5 min-w-5 rounded-full bg-red-600 px-1 text-center text-[11px] font-bold leading-5 text-white"
          >
            {badge}
          </span>
        ) : null}
      </button>
      {open ? <NotificationPanel id={panelId} items={items} unread={unread} onClose={close} /> : null}
    </div>
  );
}

function NotificationPanel({
  id,
  items,
  unread,
  onClose,
}: {
  id: string;
  items: readonly NotificationView[];
  unread: number;
  onClose: (returnFocus: boolean) => void;
}) {
  const titleId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const [now, setNow] = useState(() => Date.now());
  // After a Mark read button goes away, focus moves to its item instead of falling to the page.
  const [focusItem, setFocusItem] = useState<string | null>(null);

  useEffect(() => heading.current?.focus(), []);
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 30_000);
    return () => window.clearInterval(timer);
  }, []);
  useEffect(() => {
    if (!focusItem) return;
    list.current?.querySelector<HTMLElement>(`[data-notification-id="${CSS.escape(focusItem)}"]`)?.focus();
    setFocusItem(null);
  }, [focusItem]);

  return (
    <div
      id={id}
      role="dialog"
      aria-labelledby={titleId}
      // Under the bell from sm up; across the screen below the nav bar on a phone, where the bell
      // sits too far from the left edge for a right-aligned panel to fit.
      className="fixed inset-x-2 top-16 z-50 flex max-h-[min(70vh,36rem)] flex-col overflow-hidden rounded-xl bg-slate-900 text-slate-100 shadow-2xl ring-1 ring-white/15 sm:absolute sm:inset-x-auto sm:right-0 sm:top-full sm:mt-2 sm:w-96"
    >
      <div className="flex items-center justify-between gap-3 border-b border-white/10 px-4 py-3">
        <h2 id={titleId} ref={heading} tabIndex={-1} className="text-base font-semibold text-white focus:outline-none">
          Notifications
        </h2>
        <button
          type="button"
          onClick={() => {
            markAllNotificationsRead();
            heading.current?.focus();
          }}
          disabled={unread === 0}
          className="rounded-md px-2 py-1 text-sm font-semibold text-amber-300 hover:bg-white/10 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-300 disabled:cursor-not-allowed disabled:text-slate-400 disabled:hover:bg-transparent"
        >
          Mark all read
        </button>
      </div>
      {items.length === 0 ? (
        <p className="px-4 py-6 text-center text-sm text-slate-300">No notifications yet.</p>
      ) : (
        <ul ref={list} className="divide-y divide-white/10 overflow-y-auto">
          {items.map((item) => (
            <NotificationItem
              key={item.id}
              item={item}
              now={now}
              onFollow={() => {
                markNotificationRead(item.id);
                onClose(false);
              }}
              onMarkRead={() => {
                markNotificationRead(item.id);
                setFocusItem(item.id);
              }}
            />
          ))}
        </ul>
      )}
      {/* Push reaches this person when the tab is closed; the panel is where they look for such settings. */}
      <PushControl className="border-t border-white/10 px-4 py-3" />
    </div>
  );
}

function NotificationItem({ item, now, onFollow, onMarkRead }: { item: NotificationView; now: number; onFollow: () => void; onMarkRead: () => void }) {
  const action = safeActionHref(item.actionUrl);
  const linkClasses =
    'rounded text-sm font-semibold text-amber-300 underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-300';
  return (
    <li data-notification-id={item.id} tabIndex={-1} className={cn('grid gap-1 px-4 py-3 focus:outline-none focus-visible:bg-white/10', !item.read && 'bg-white/5')}>
      <div className="flex items-start justify-between gap-3">
        <p className="flex items-center gap-2 font-semibold text-white">
          {item.read ? null : (
            <>
              <span aria-hidden="true" className="size-2 shrink-0 rounded-full bg-amber-400" />
              <span className="sr-only">Unread: </span>
            </>
          )}
          {item.title}
        </p>
        <time
          dateTime={item.timestamp}
          title={formatDateTime(item.timestamp) ?? undefined}
          className="shrink-0 text-xs text-slate-300"
        >
          {relativeTime(item.timestamp, now)}
        </time>
      </div>
      {item.message ? <p className="text-sm text-slate-200">{item.message}</p> : null}
      {action || !item.read ? (
        <div className="mt-1 flex flex-wrap gap-4">
          {action?.kind === 'internal' ? (
            <Link to={action.href} onClick={onFollow} className={linkClasses}>
              View<span className="sr-only">: {item.title}</span>
            </Link>
          ) : action ? (
            <a href={action.href} onClick={onFollow} target="_blank" rel="noreferrer noopener" className={linkClasses}>
              View<span className="sr-only">: {item.title} (opens in a new tab)</span>
            </a>
          ) : null}
          {item.read ? null : (
            <button type="button" onClick={onMarkRead} className={cn(linkClasses, 'text-slate-200')}>
              Mark read<span className="sr-only">: {item.title}</span>
            </button>
          )}
        </div>
      ) : null}
    </li>
  );
}
