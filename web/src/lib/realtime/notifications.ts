import type { NotificationView } from '../../../../shared/realtime';
import { MAX_NOTIFICATIONS_SHOWN } from '../../../../shared/realtime-limits';

/**
 * The notification centre's list: newest first, at most
 * 100, fed by the batch on connect, live `notification` frames and the offline poll. Reading is
 * local at once and told to the server by `notification:ack`; an ack that could not be sent yet
 * (offline) waits and goes on the next connect, and the item stays read here meanwhile even if a
 * batch still says unread.
 */
export interface NotificationsSnapshot {
  items: readonly NotificationView[];
  unread: number;
}

/** Sends one ack; answers false when it cannot go now. `onSent` runs once it has gone. */
export type AckSender = (notificationId: string, onSent: () => void) => boolean;

const EMPTY: NotificationsSnapshot = { items: [], unread: 0 };

function newestFirst(a: NotificationView, b: NotificationView): number {
  if (a.timestamp !== b.timestamp) return a.timestamp < b.timestamp ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

export class NotificationStore {
  private snapshot: NotificationsSnapshot = EMPTY;
  private readonly readHere = new Set<string>();
  private readonly pendingAcks = new Set<string>();
  private readonly inFlight = new Set<string>();
  private readonly listeners = new Set<() => void>();
  private readonly arrivals = new Set<(item: NotificationView) => void>();

  getSnapshot = (): NotificationsSnapshot => this.snapshot;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Runs for each live notification that is new here (toast, sound, browser notification). */
  onArrival(listener: (item: NotificationView) => void): () => void {
    this.arrivals.add(listener);
    return () => this.arrivals.delete(listener);
  }

  /** A whole list (the batch, or GET /api/notifications): merged with what is here, by id. */
  receiveAll(list: readonly NotificationView[]): void {
    const byId = new Map(this.snapshot.items.map((item) => [item.id, item]));
    for (const item of list) if (isNotification(item)) byId.set(item.id, item);
    this.commit([...byId.values()]);
  }

  /** One live notification; true when it is new here (so it deserves a toast). */
  receive(item: NotificationView): boolean {
    if (!isNotification(item)) return false;
    const known = this.snapshot.items.some((existing) => existing.id === item.id);
    this.commit([item, ...this.snapshot.items.filter((existing) => existing.id !== item.id)]);
    const isNew = !known && this.snapshot.items.some((kept) => kept.id === item.id);
    if (isNew) for (const listener of [...this.arrivals]) listener(item);
    return isNew;
  }

  markRead(id: string): void {
    const item = this.snapshot.items.find((existing) => existing.id === id);
    if (!item || this.isRead(item)) return;
    this.readHere.add(id);
    this.pendingAcks.add(id);
    this.commit(this.snapshot.items);
  }

  markAllRead(): void {
    const unread = this.snapshot.items.filter((item) => !this.isRead(item));
    if (!unread.length) return;
    for (const item of unread) {
      this.readHere.add(item.id);
      this.pendingAcks.add(item.id);
    }
    this.commit(this.snapshot.items);
  }

  /** Hands every ack still owed to `send`; what it refuses stays owed. */
  flushAcks(send: AckSender): void {
    for (const id of this.pendingAcks) {
      if (this.inFlight.has(id)) continue;
      const accepted = send(id, () => {
        this.pendingAcks.delete(id);
        this.inFlight.delete(id);
      });
      if (accepted) this.inFlight.add(id);
    }
  }

  /** A socket closed: acks handed over but not sent are owed again. */
  connectionLost(): void {
    this.inFlight.clear();
  }

  /** Ids whose ack is still owed (for tests). */
  owedAcks(): string[] {
    return [...this.pendingAcks];
  }

  /** Someone else now (sign-out, another account): nothing of the last person's stays. */
  reset(): void {
    this.readHere.clear();
    this.pendingAcks.clear();
    this.inFlight.clear();
    this.snapshot = EMPTY;
    this.emit();
  }

  private isRead(item: NotificationView): boolean {
    return item.read || this.readHere.has(item.id);
  }

  private commit(items: readonly NotificationView[]): void {
    const kept = [...items]
      .sort(newestFirst)
      .slice(0, MAX_NOTIFICATIONS_SHOWN)
      .map((item) => (!item.read && this.readHere.has(item.id) ? { ...item, read: true } : item));
    // Read marks of items that fell off the list are not needed any more (their acks still go).
    const ids = new Set(kept.map((item) => item.id));
    for (const id of this.readHere) if (!ids.has(id) && !this.pendingAcks.has(id)) this.readHere.delete(id);
    this.snapshot = { items: kept, unread: kept.filter((item) => !item.read).length };
    this.emit();
  }

  private emit(): void {
    for (const listener of [...this.listeners]) listener();
  }
}

function isNotification(value: unknown): value is NotificationView {
  const item = value as Partial<NotificationView> | null;
  return typeof item === 'object' && item !== null && typeof item.id === 'string' && typeof item.timestamp === 'string' && typeof item.title === 'string';
}

/** The badge on the bell: nothing at 0, the count up to 99, then "99+", so the badge keeps its width. */
export function badgeText(unread: number): string | null {
  if (unread <= 0) return null;
  return unread > 99 ? '99+' : String(unread);
}

/** GET /api/notifications answers the batch's list; accepted bare or as `{ notifications }`. */
export function notificationsFromResponse(body: unknown): NotificationView[] {
  if (Array.isArray(body)) return body.filter(isNotification);
  const list = (body as { notifications?: unknown } | null)?.notifications;
  return Array.isArray(list) ? list.filter(isNotification) : [];
}
