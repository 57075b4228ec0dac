import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { reconnect } from '../../../../shared/realtime';
import { identityNarrowed, identityOf, PING_INTERVAL_MS, RealtimeClient, socketUrl, type SocketLike } from './client';

/** A WebSocket stand-in: the test opens, closes and feeds it; `sent` holds what the client wrote. */
class FakeSocket implements SocketLike {
  readyState = 0;
  onopen: ((event: Event) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  readonly sent: string[] = [];
  closedByClient = false;

  constructor(
    readonly url: string,
    readonly protocols: string[],
  ) {}

  send(data: string): void {
    if (this.readyState !== 1) throw new Error('send on a socket that is not open');
    this.sent.push(data);
  }

  close(): void {
    this.closedByClient = true;
    this.readyState = 3;
  }

  open(): void {
    this.readyState = 1;
    this.onopen?.({} as Event);
  }

  drop(): void {
    this.readyState = 3;
    this.onclose?.({ code: 1006 } as CloseEvent);
  }

  receive(frame: unknown): void {
    this.onmessage?.({ data: typeof frame === 'string' ? frame : JSON.stringify(frame) } as MessageEvent);
  }

  frames(): unknown[] {
    return this.sent.map((s) => JSON.parse(s));
  }
}

let sockets: FakeSocket[];
let client: RealtimeClient;
// Without registering, so each test's frames are only its own; registering has its own test.
const worker = { ...identityOf({ worker: { token: 'tok', id: 'w1' }, owner: false, customer: false })!, register: null };

function latest(): FakeSocket {
  const socket = sockets[sockets.length - 1];
  if (!socket) throw new Error('no socket was created');
  return socket;
}

beforeEach(() => {
  vi.useFakeTimers();
  sockets = [];
  client = new RealtimeClient({
    url: () => 'ws://localhost:3000/ws',
    createSocket: (url, protocols) => {
      const socket = new FakeSocket(url, protocols);
      sockets.push(socket);
      return socket;
    },
    random: () => 0.5,
  });
});

afterEach(() => {
  client.dispose();
  vi.useRealTimers();
});

describe('realtime client: connecting', () => {
  it('stays offline and opens nothing without an identity', () => {
    // Act
    client.setIdentity(null);

    // Assess
    expect(sockets).toHaveLength(0);
    expect(client.getSnapshot()).toEqual({ status: 'offline', wanted: false, gaveUp: false });
  });

  it('connects with the worker token as a subprotocol and reports connected once open', () => {
    // Act
    client.setIdentity(worker);
    const before = client.getSnapshot().status;
    latest().open();

    // Assess
    expect(latest().url).toBe('ws://localhost:3000/ws');
    expect(latest().protocols).toEqual(['fixly.v1', 'token.tok']);
    expect(before).toBe('reconnecting');
    expect(client.getSnapshot()).toEqual({ status: 'connected', wanted: true, gaveUp: false });
  });

  it('opens a new socket when the identity changes and closes when it goes', () => {
    // Prepare
    client.setIdentity(worker);
    latest().open();
    const first = latest();

    // Act
    client.setIdentity(identityOf({ worker: { token: 'tok', id: 'w1' }, owner: true, customer: false }));
    const second = latest();
    client.setIdentity(identityOf({ worker: { token: 'tok', id: 'w1' }, owner: true, customer: false }));
    client.setIdentity(null);

    // Assess
    expect(first.closedByClient).toBe(true);
    expect(sockets).toHaveLength(2);
    expect(second.closedByClient).toBe(true);
    expect(client.getSnapshot()).toEqual({ status: 'offline', wanted: false, gaveUp: false });
  });

  it('gives up on a socket that has not opened within 10 s and tries again', () => {
    // Prepare
    client.setIdentity(worker);
    const stuck = latest();

    // Act
    vi.advanceTimersByTime(reconnect.connectTimeoutMs - 1);
    const beforeTimeout = stuck.closedByClient;
    vi.advanceTimersByTime(1);
    vi.advanceTimersByTime(1000);

    // Assess
    expect(beforeTimeout).toBe(false);
    expect(stuck.closedByClient).toBe(true);
    expect(sockets).toHaveLength(2);
    expect(client.getSnapshot().status).toBe('reconnecting');
  });
});

describe('realtime client: reconnecting', () => {
  it('waits 1, 2, 4 … 30 s between attempts and goes offline after ten', () => {
    // Prepare
    client.setIdentity(worker);
    const waits: number[] = [];

    // Act: every socket fails at once; measure the time until the next one is created.
    for (let i = 0; i < 11; i++) {
      const count = sockets.length;
      latest().drop();
      if (client.getSnapshot().gaveUp) break;
      let waited = 0;
      while (sockets.length === count) {
        vi.advanceTimersByTime(100);
        waited += 100;
      }
      waits.push(waited);
    }

    // Assess
    expect(waits).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000, 30000, 30000]);
    expect(sockets).toHaveLength(11);
    expect(client.getSnapshot()).toEqual({ status: 'offline', wanted: true, gaveUp: true });
    vi.advanceTimersByTime(10 * 60_000);
    expect(sockets).toHaveLength(11);
  });

  it('starts a fresh round at once when asked to reconnect after giving up', () => {
    // Prepare
    client.setIdentity(worker);
    latest().drop();
    for (let i = 0; i < 10; i++) {
      vi.runOnlyPendingTimers();
      latest().drop();
    }
    expect(client.getSnapshot().gaveUp).toBe(true);

    // Act
    client.reconnectNow();
    latest().open();

    // Assess
    expect(sockets).toHaveLength(12);
    expect(client.getSnapshot()).toEqual({ status: 'connected', wanted: true, gaveUp: false });
  });

  it('counts attempts again from the first after a successful open', () => {
    // Prepare: two failures, then an open that later drops.
    client.setIdentity(worker);
    latest().drop();
    vi.advanceTimersByTime(1000);
    latest().drop();
    vi.advanceTimersByTime(2000);
    latest().open();

    // Act
    latest().drop();
    const count = sockets.length;
    vi.advanceTimersByTime(999);
    const early = sockets.length;
    vi.advanceTimersByTime(1);

    // Assess
    expect(early).toBe(count);
    expect(sockets.length).toBe(count + 1);
  });
});

describe('realtime client: rooms', () => {
  it('joins each room once as it is taken, in the frame of its role', () => {
    // Prepare
    client.setIdentity(worker);
    latest().open();

    // Act
    client.joinRoom('job-1', 'worker');
    client.joinRoom('job-1', 'worker');
    client.joinRoom('req-2', 'customer');

    // Assess
    expect(latest().frames()).toEqual([
      { event: 'join:jobRoom', data: { jobId: 'job-1' } },
      { event: 'join_request', data: { requestId: 'req-2' } },
    ]);
  });

  it('registers first on every open, so the server sends the notification batch', () => {
    // Prepare
    client.setIdentity(identityOf({ worker: { token: 'tok', id: 'w1' }, owner: false, customer: false }));
    client.joinRoom('job-1', 'worker');
    latest().open();
    latest().drop();
    vi.advanceTimersByTime(1000);

    // Act
    latest().open();

    // Assess
    expect(latest().frames()).toEqual([
      { event: 'register:user', data: { userId: 'w1', role: 'worker' } },
      { event: 'join:jobRoom', data: { jobId: 'job-1' } },
    ]);
  });

  it('rejoins every held room after a reconnect, and not the released ones', () => {
    // Prepare
    client.setIdentity(worker);
    latest().open();
    client.joinRoom('job-1', 'worker');
    const release = client.joinRoom('req-2', 'customer');
    client.joinRoom('req-3', 'customer');
    release();
    vi.advanceTimersByTime(0);

    // Act
    latest().drop();
    vi.advanceTimersByTime(1000);
    latest().open();

    // Assess
    expect(client.heldRooms()).toEqual(['worker:job-1', 'customer:req-3']);
    expect(latest().frames()).toEqual([
      { event: 'join:jobRoom', data: { jobId: 'job-1' } },
      { event: 'join_request', data: { requestId: 'req-3' } },
    ]);
  });

  it('joins rooms taken while offline as soon as the socket opens', () => {
    // Prepare
    client.joinRoom('job-9', 'worker');
    client.setIdentity(worker);

    // Act
    latest().open();

    // Assess
    expect(latest().frames()).toEqual([{ event: 'join:jobRoom', data: { jobId: 'job-9' } }]);
  });

  it('leaves a room only when its last holder lets go, and not for a release taken back at once', () => {
    // Prepare
    client.setIdentity(worker);
    latest().open();
    const first = client.joinRoom('job-1', 'worker');
    const second = client.joinRoom('job-1', 'worker');

    // Act: StrictMode-like release and retake, then both go.
    first();
    const third = client.joinRoom('job-1', 'worker');
    vi.advanceTimersByTime(0);
    const whileHeld = latest().frames().length;
    second();
    third();
    vi.advanceTimersByTime(0);

    // Assess
    expect(whileHeld).toBe(1);
    expect(latest().frames()).toEqual([
      { event: 'join:jobRoom', data: { jobId: 'job-1' } },
      { event: 'leave:jobRoom', data: { jobId: 'job-1' } },
    ]);
    expect(client.heldRooms()).toEqual([]);
  });

  it('keeps bulk frames under the server limit by spreading them over seconds', () => {
    // Prepare
    client.setIdentity(worker);
    for (let i = 0; i < 12; i++) client.joinRoom(`job-${i}`, 'worker');

    // Act
    latest().open();
    const firstSecond = latest().sent.length;
    vi.advanceTimersByTime(1000);

    // Assess
    expect(firstSecond).toBe(8);
    expect(latest().sent).toHaveLength(12);
  });
});

describe('realtime client: frames', () => {
  it('hands each event to its handlers and ignores frames that are not frames', () => {
    // Prepare
    client.setIdentity(worker);
    latest().open();
    const seen: unknown[] = [];
    client.on('work_status', (data) => seen.push(data.status));
    const off = client.on('joined', (data) => seen.push(data.room));

    // Act
    latest().receive({ event: 'work_status', data: { requestId: 'r', status: 'arrived', eta: null, timestamp: 't' } });
    latest().receive('garbage');
    latest().receive({ event: 'joined', data: { room: 'job:r' } });
    off();
    latest().receive({ event: 'joined', data: { room: 'job:s' } });

    // Assess
    expect(seen).toEqual(['arrived', 'job:r']);
  });

  it('keeps delivering to the other handlers when one throws', () => {
    // Prepare
    client.setIdentity(worker);
    latest().open();
    const seen: string[] = [];
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    client.on('pong', () => {
      throw new Error('boom');
    });
    client.on('pong', () => seen.push('second'));

    // Act
    latest().receive({ event: 'pong', data: {} });

    // Assess
    expect(seen).toEqual(['second']);
    expect(error).toHaveBeenCalledOnce();
    error.mockRestore();
  });

  it('sends while connected and refuses, queueing nothing, while not', () => {
    // Prepare
    client.setIdentity(worker);
    const offline = client.send('notification:ack', { notificationId: 'n1' });
    latest().open();

    // Act
    const online = client.send('notification:ack', { notificationId: 'n2' });

    // Assess
    expect(offline).toBe(false);
    expect(online).toBe(true);
    expect(latest().frames()).toEqual([{ event: 'notification:ack', data: { notificationId: 'n2' } }]);
  });

  it('pings every five minutes while open', () => {
    // Prepare
    client.setIdentity(worker);
    latest().open();

    // Act
    vi.advanceTimersByTime(PING_INTERVAL_MS * 2);

    // Assess
    expect(latest().frames()).toEqual([
      { event: 'ping', data: {} },
      { event: 'ping', data: {} },
    ]);
  });

  it('ignores a replaced socket that closes late', () => {
    // Prepare
    client.setIdentity(worker);
    const old = latest();
    client.setIdentity(identityOf({ worker: null, owner: true, customer: false }));
    latest().open();

    // Act
    old.onclose?.({} as CloseEvent);

    // Assess
    expect(client.getSnapshot().status).toBe('connected');
  });
});

describe('realtime identity and address', () => {
  it('says who connects, and nobody without a session or a request', () => {
    // Act
    const none = identityOf({ worker: null, owner: false, customer: false });
    const customer = identityOf({ worker: null, owner: false, customer: true });
    const both = identityOf({ worker: { token: 'abc', id: 'w1' }, owner: false, customer: true });
    const owner = identityOf({ worker: { token: 'abc', id: 'w1' }, owner: true, customer: false });

    // Assess
    expect(none).toBeNull();
    expect(customer).toEqual({ key: 'customer', protocols: ['fixly.v1'], register: null });
    expect(both).toEqual({ key: 'customer|worker:w1:abc', protocols: ['fixly.v1', 'token.abc'], register: { userId: 'w1', role: 'worker' } });
    expect(owner?.register).toEqual({ userId: 'owner', role: 'owner' });
  });

  it('calls a change narrowed only when someone of the last identity is gone', () => {
    // Act + Assess
    expect(identityNarrowed(null, 'customer')).toBe(false);
    expect(identityNarrowed('customer', 'customer|owner')).toBe(false);
    expect(identityNarrowed('customer|owner', 'customer')).toBe(true);
    expect(identityNarrowed('worker:a', 'worker:b')).toBe(true);
    expect(identityNarrowed('owner', null)).toBe(true);
  });

  it('uses the page host, secure under https', () => {
    // Act + Assess
    expect(socketUrl({ protocol: 'https:', host: 'fixly.app' })).toBe('wss://fixly.app/ws');
    expect(socketUrl({ protocol: 'http:', host: 'localhost:3000' })).toBe('ws://localhost:3000/ws');
  });
});
