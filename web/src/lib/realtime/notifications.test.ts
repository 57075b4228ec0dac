import { describe, expect, it } from 'vitest';
import type { NotificationView } from '../../../../shared/realtime';
import { badgeText, NotificationStore, notificationsFromResponse } from './notifications';

function note(n: number, overrides: Partial<NotificationView> = {}): NotificationView {
  return {
    id: `n${n}`,
    type: 'job_created',
    title: `Title ${n}`,
    message: `Message ${n}`,
    priority: 'medium',
    actionUrl: null,
    jobId: null,
    timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
    read: false,
    ...overrides,
  };
}

describe('notification store', () => {
  it('keeps the newest 100, newest first, with the unread count', () => {
    // Prepare
    const store = new NotificationStore();
    const many = Array.from({ length: 120 }, (_, i) => note(i, { read: i % 2 === 0 }));

    // Act
    store.receiveAll(many);

    // Assess
    const { items, unread } = store.getSnapshot();
    expect(items).toHaveLength(100);
    expect(items[0]?.id).toBe('n119');
    expect(items[99]?.id).toBe('n20');
    expect(unread).toBe(50);
  });

  it('says a live notification is new once, and merges a later batch without doubling it', () => {
    // Prepare
    const store = new NotificationStore();

    // Act
    const first = store.receive(note(1));
    const again = store.receive(note(1));
    store.receiveAll([note(1), note(2)]);

    // Assess
    expect([first, again]).toEqual([true, false]);
    expect(store.getSnapshot().items.map((item) => item.id)).toEqual(['n2', 'n1']);
  });

  it('announces each new live notification once to arrival listeners', () => {
    // Prepare
    const store = new NotificationStore();
    const heard: string[] = [];
    store.onArrival((item) => heard.push(item.id));

    // Act
    store.receiveAll([note(1)]);
    store.receive(note(1));
    store.receive(note(2));
    store.receive(note(2));

    // Assess
    expect(heard).toEqual(['n2']);
  });

  it('does not call a notification older than the kept 100 new', () => {
    // Prepare
    const store = new NotificationStore();
    store.receiveAll(Array.from({ length: 100 }, (_, i) => note(i + 10)));

    // Act
    const isNew = store.receive(note(1));

    // Assess
    expect(isNew).toBe(false);
    expect(store.getSnapshot().items).toHaveLength(100);
  });

  it('marks one read at once and owes the server its ack until it has been sent', () => {
    // Prepare
    const store = new NotificationStore();
    store.receiveAll([note(1), note(2)]);
    const sent: string[] = [];

    // Act
    store.markRead('n1');
    const owedBefore = store.owedAcks();
    store.flushAcks((id, onSent) => {
      sent.push(id);
      onSent();
      return true;
    });

    // Assess
    expect(store.getSnapshot().unread).toBe(1);
    expect(owedBefore).toEqual(['n1']);
    expect(sent).toEqual(['n1']);
    expect(store.owedAcks()).toEqual([]);
  });

  it('keeps acks owed while offline and sends each once when the socket is back', () => {
    // Prepare
    const store = new NotificationStore();
    store.receiveAll([note(1), note(2), note(3)]);
    store.markAllRead();
    const later: Array<() => void> = [];
    const sent: string[] = [];

    // Act: offline refuses; then the socket takes them but closes before two went out.
    store.flushAcks(() => false);
    store.flushAcks((id, onSent) => {
      later.push(onSent);
      sent.push(id);
      return true;
    });
    store.flushAcks((id) => {
      sent.push(`again-${id}`);
      return true;
    });
    later[0]!();
    store.connectionLost();
    store.flushAcks((id, onSent) => {
      sent.push(id);
      onSent();
      return true;
    });

    // Assess
    expect(store.getSnapshot().unread).toBe(0);
    expect(sent).toEqual(['n3', 'n2', 'n1', 'n2', 'n1']);
    expect(store.owedAcks()).toEqual([]);
  });

  it('keeps a read mark when a batch that predates the ack still says unread', () => {
    // Prepare
    const store = new NotificationStore();
    store.receiveAll([note(1)]);
    store.markRead('n1');

    // Act
    store.receiveAll([note(1, { read: false })]);

    // Assess
    expect(store.getSnapshot().items[0]?.read).toBe(true);
    expect(store.getSnapshot().unread).toBe(0);
  });

  it('forgets everything of the last person on reset', () => {
    // Prepare
    const store = new NotificationStore();
    store.receiveAll([note(1)]);
    store.markRead('n1');

    // Act
    store.reset();

    // Assess
    expect(store.getSnapshot()).toEqual({ items: [], unread: 0 });
    expect(store.owedAcks()).toEqual([]);
  });

  it('tells subscribers about every change', () => {
    // Prepare
    const store = new NotificationStore();
    let calls = 0;
    const off = store.subscribe(() => calls++);

    // Act
    store.receive(note(1));
    store.markRead('n1');
    store.markRead('n1');
    off();
    store.receive(note(2));

    // Assess
    expect(calls).toBe(2);
  });
});

describe('notification badge and responses', () => {
  it('shows nothing at zero, the count up to 99 and 99+ above', () => {
    // Act + Assess
    expect([0, 1, 99, 100, 2500].map(badgeText)).toEqual([null, '1', '99', '99+', '99+']);
  });

  it('reads the list bare or under notifications, dropping what is not one', () => {
    // Act
    const bare = notificationsFromResponse([note(1), { nope: true }]);
    const wrapped = notificationsFromResponse({ notifications: [note(2)] });
    const nothing = notificationsFromResponse(null);

    // Assess
    expect(bare.map((n) => n.id)).toEqual(['n1']);
    expect(wrapped.map((n) => n.id)).toEqual(['n2']);
    expect(nothing).toEqual([]);
  });
});
