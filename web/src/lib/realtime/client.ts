import type { ClientEvent, ServerEvent, ServerEvents } from '../../../../shared/realtime';
import { MAX_MESSAGES_PER_SECOND, reconnect } from '../../../../shared/realtime-limits';
import { mayRetry, reconnectDelayMs } from './backoff';
import { encodeFrame, parseServerFrame, type ClientData } from './frames';

/**
 * One /ws connection with the backoff reconnect rule (./backoff.ts), the rooms this tab wants, and a
 * keep-alive ping. Framework-free, so the schedule and the bookkeeping are tested with a fake
 * socket; React reaches it through ./hooks.
 */
export type RealtimeStatus = 'connected' | 'reconnecting' | 'offline';
export type RoomRole = 'customer' | 'worker';

export interface RealtimeSnapshot {
  status: RealtimeStatus;
  /** There is an identity, so a socket is wanted (the nav bar shows the indicator and bell). */
  wanted: boolean;
  /** Every reconnect attempt failed: nothing more happens until reconnectNow(). */
  gaveUp: boolean;
}

/** Who connects: `key` changes whenever the server would see a different person (a new socket then). */
export interface RealtimeIdentity {
  key: string;
  protocols: string[];
  /**
   * Sent as `register:user` on every open: the server answers with the person's user channels and
   * their notifications:batch. Null for a customer alone, whose id is in an HttpOnly cookie the
   * page cannot read (the provider fetches their list over HTTP instead).
   */
  register: { userId: string; role: 'worker' | 'owner' } | null;
}

/** The part of the browser's WebSocket the client uses (a fake one in tests). */
export interface SocketLike {
  readonly readyState: number;
  onopen: ((event: Event) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
  onerror: ((event: Event) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

export type SocketFactory = (url: string, protocols: string[]) => SocketLike;

const OPEN = 1;
/** API Gateway closes a socket idle for 10 minutes; a ping every 5 keeps it. */
export const PING_INTERVAL_MS = 5 * 60_000;
/**
 * Frames the client itself sends in bulk (rejoins after a reconnect, acks of Mark all read) stay
 * under the server's per-second limit, with room left for the screens' own frames.
 */
export const PACED_FRAMES_PER_SECOND = MAX_MESSAGES_PER_SECOND - 2;
/** Leaving waits a tick, so a room released and taken again at once (StrictMode) sends nothing. */
const LEAVE_DELAY_MS = 0;

type Handler = (data: never) => void;

interface Paced {
  frame: string;
  onSent?: () => void;
}

export interface RealtimeClientOptions {
  url: () => string;
  createSocket: SocketFactory;
  random?: () => number;
}

export class RealtimeClient {
  private identity: RealtimeIdentity | null = null;
  private socket: SocketLike | null = null;
  private snapshot: RealtimeSnapshot = { status: 'offline', wanted: false, gaveUp: false };
  /** Consecutive failed connects since the last open. */
  private failures = 0;
  private connectTimer: ReturnType<typeof setTimeout> | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private pingTimer: ReturnType<typeof setInterval> | undefined;
  private leaveTimer: ReturnType<typeof setTimeout> | undefined;
  private paceTimer: ReturnType<typeof setTimeout> | undefined;
  /** Who wants which job room in this tab: jobId -> role -> holders. */
  private readonly wantedRooms = new Map<string, Map<RoomRole, number>>();
  /** What the current socket has joined: jobId -> roles. */
  private readonly joinedRooms = new Map<string, Set<RoomRole>>();
  private readonly handlers = new Map<string, Set<Handler>>();
  private readonly statusListeners = new Set<() => void>();
  private readonly openListeners = new Set<() => void>();
  private pacedQueue: Paced[] = [];
  /** When recent frames went out (for pacing), oldest first. */
  private sentAt: number[] = [];

  constructor(private readonly options: RealtimeClientOptions) {}

  getSnapshot = (): RealtimeSnapshot => this.snapshot;

  subscribe = (listener: () => void): (() => void) => {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  };

  /** Runs on every successful open (first connect and each reconnect). */
  onOpen(listener: () => void): () => void {
    this.openListeners.add(listener);
    return () => this.openListeners.delete(listener);
  }

  /** Connects as `identity`, reconnects when it changes, closes when it is null. */
  setIdentity(identity: RealtimeIdentity | null): void {
    if (identity?.key === this.identity?.key) {
      this.identity = identity;
      return;
    }
    this.identity = identity;
    this.teardown();
    this.failures = 0;
    if (!identity) {
      this.setSnapshot({ status: 'offline', wanted: false, gaveUp: false });
      return;
    }
    this.connect();
  }

  /** The manual Reconnect: a fresh round of attempts, starting now. */
  reconnectNow(): void {
    if (!this.identity || this.snapshot.status === 'connected') return;
    this.teardown();
    this.failures = 0;
    this.connect();
  }

  /** Sends one frame if the socket is open; nothing is queued while it is not. */
  send<E extends ClientEvent>(event: E, data: ClientData<E>): boolean {
    const socket = this.socket;
    if (!socket || socket.readyState !== OPEN || this.snapshot.status !== 'connected') return false;
    this.write(socket, encodeFrame(event, data));
    return true;
  }

  /**
   * Sends a frame when the pace allows, while this socket stays open; `onSent` runs once it has
   * gone out. Dropped (without onSent) if the socket closes first.
   */
  sendPaced<E extends ClientEvent>(event: E, data: ClientData<E>, onSent?: () => void): boolean {
    if (this.snapshot.status !== 'connected') return false;
    this.pacedQueue.push({ frame: encodeFrame(event, data), onSent });
    this.drain();
    return true;
  }

  on<E extends ServerEvent>(event: E, handler: (data: ServerEvents[E]) => void): () => void {
    let set = this.handlers.get(event);
    if (!set) {
      set = new Set();
      this.handlers.set(event, set);
    }
    set.add(handler as Handler);
    return () => {
      set.delete(handler as Handler);
      if (set.size === 0) this.handlers.delete(event);
    };
  }

  /** Holds job room `job:<jobId>` as `role` until the returned release runs; rejoined after every reconnect. */
  joinRoom(jobId: string, role: RoomRole): () => void {
    const roles = this.wantedRooms.get(jobId) ?? new Map<RoomRole, number>();
    roles.set(role, (roles.get(role) ?? 0) + 1);
    this.wantedRooms.set(jobId, roles);
    this.sendJoin(jobId, role);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const current = this.wantedRooms.get(jobId);
      if (!current) return;
      const left = (current.get(role) ?? 1) - 1;
      if (left > 0) current.set(role, left);
      else current.delete(role);
      if (current.size === 0) this.wantedRooms.delete(jobId);
      this.scheduleLeaves();
    };
  }

  /** The rooms this tab holds, as `<role>:<jobId>` (for tests and debugging). */
  heldRooms(): string[] {
    return [...this.wantedRooms].flatMap(([jobId, roles]) => [...roles.keys()].map((role) => `${role}:${jobId}`));
  }

  /** Stops everything (identity and rooms are kept); for tests and page teardown. */
  dispose(): void {
    this.identity = null;
    this.teardown();
    this.setSnapshot({ status: 'offline', wanted: false, gaveUp: false });
  }

  private connect(): void {
    const identity = this.identity;
    if (!identity) return;
    this.setSnapshot({ status: 'reconnecting', wanted: true, gaveUp: false });
    let socket: SocketLike;
    try {
      socket = this.options.createSocket(this.options.url(), identity.protocols);
    } catch {
      // A malformed URL or protocol throws synchronously: it counts as a failed attempt.
      this.failed();
      return;
    }
    this.socket = socket;
    this.connectTimer = setTimeout(() => {
      if (this.socket !== socket) return;
      this.detach(socket);
      this.failed();
    }, reconnect.connectTimeoutMs);
    socket.onopen = () => {
      if (this.socket !== socket) return;
      clearTimeout(this.connectTimer);
      this.failures = 0;
      this.joinedRooms.clear();
      this.setSnapshot({ status: 'connected', wanted: true, gaveUp: false });
      this.pingTimer = setInterval(() => this.send('ping', {}), PING_INTERVAL_MS);
      if (identity.register) this.sendPaced('register:user', identity.register);
      this.rejoinAll();
      for (const listener of [...this.openListeners]) listener();
    };
    socket.onmessage = (event) => {
      if (this.socket !== socket) return;
      const message = parseServerFrame(event.data);
      if (!message) return;
      const set = this.handlers.get(message.event);
      if (!set) return;
      for (const handler of [...set]) {
        try {
          (handler as (data: unknown) => void)(message.data);
        } catch (error) {
          // One screen's failing handler must not starve the others of the frame.
          console.error(`Realtime handler for "${message.event}" failed`, error);
        }
      }
    };
    // The browser follows every error with a close; the close decides what happens next.
    socket.onerror = () => undefined;
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.detach(socket);
      this.failed();
    };
  }

  /** A connect that did not open, or an open socket that closed: the next attempt, or giving up. */
  private failed(): void {
    if (!this.identity) return;
    this.failures += 1;
    if (!mayRetry(this.failures)) {
      this.setSnapshot({ status: 'offline', wanted: true, gaveUp: true });
      return;
    }
    this.setSnapshot({ status: 'reconnecting', wanted: true, gaveUp: false });
    this.retryTimer = setTimeout(() => this.connect(), reconnectDelayMs(this.failures, this.options.random));
  }

  /** Forgets a socket: its handlers go, it is closed, and what belonged to it is cleared. */
  private detach(socket: SocketLike): void {
    socket.onopen = socket.onclose = socket.onerror = null;
    socket.onmessage = null;
    try {
      socket.close(1000, 'client');
    } catch {
      // Closing a socket that never opened can throw in some browsers; it is gone either way.
    }
    if (this.socket === socket) this.socket = null;
    clearTimeout(this.connectTimer);
    clearInterval(this.pingTimer);
    clearTimeout(this.paceTimer);
    this.paceTimer = undefined;
    this.pacedQueue = [];
    this.joinedRooms.clear();
  }

  private teardown(): void {
    clearTimeout(this.retryTimer);
    clearTimeout(this.leaveTimer);
    this.leaveTimer = undefined;
    if (this.socket) this.detach(this.socket);
  }

  private rejoinAll(): void {
    for (const [jobId, roles] of this.wantedRooms) for (const role of roles.keys()) this.sendJoin(jobId, role);
  }

  private sendJoin(jobId: string, role: RoomRole): void {
    if (this.snapshot.status !== 'connected' || this.joinedRooms.get(jobId)?.has(role)) return;
    const joined = this.joinedRooms.get(jobId) ?? new Set<RoomRole>();
    joined.add(role);
    this.joinedRooms.set(jobId, joined);
    if (role === 'customer') this.sendPaced('join_request', { requestId: jobId });
    else this.sendPaced('join:jobRoom', { jobId });
  }

  private scheduleLeaves(): void {
    if (this.leaveTimer !== undefined) return;
    this.leaveTimer = setTimeout(() => {
      this.leaveTimer = undefined;
      for (const [jobId, roles] of [...this.joinedRooms]) {
        const wanted = this.wantedRooms.get(jobId);
        if (wanted) {
          // Still held in another role: that role's membership stays (one room on the server).
          for (const role of roles) if (!wanted.has(role)) roles.delete(role);
          continue;
        }
        this.joinedRooms.delete(jobId);
        this.sendPaced('leave:jobRoom', { jobId });
      }
    }, LEAVE_DELAY_MS);
  }

  private write(socket: SocketLike, frame: string): void {
    socket.send(frame);
    this.sentAt.push(Date.now());
  }

  private drain(): void {
    clearTimeout(this.paceTimer);
    this.paceTimer = undefined;
    const socket = this.socket;
    if (!socket || socket.readyState !== OPEN) return;
    while (this.pacedQueue.length) {
      const now = Date.now();
      this.sentAt = this.sentAt.filter((t) => now - t < 1000);
      if (this.sentAt.length >= PACED_FRAMES_PER_SECOND) {
        this.paceTimer = setTimeout(() => this.drain(), 1000 - (now - this.sentAt[0]!));
        return;
      }
      const next = this.pacedQueue.shift()!;
      this.write(socket, next.frame);
      next.onSent?.();
    }
  }

  private setSnapshot(next: RealtimeSnapshot): void {
    const current = this.snapshot;
    if (current.status === next.status && current.wanted === next.wanted && current.gaveUp === next.gaveUp) return;
    this.snapshot = next;
    for (const listener of [...this.statusListeners]) listener();
  }
}

/** The page's own /ws address: same host, wss under https. */
export function socketUrl(location: Pick<Location, 'protocol' | 'host'>): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
}

/** The subprotocols that say who connects: cookies go on their own; a worker adds their token. */
export const PROTOCOL = 'fixly.v1';

export interface IdentityInputs {
  /** A signed-in worker the server accepts (active); pending and terminated ones get no socket. */
  worker: { token: string; id: string } | null;
  owner: boolean;
  customer: boolean;
}

export function identityOf({ worker, owner, customer }: IdentityInputs): RealtimeIdentity | null {
  if (!worker && !owner && !customer) return null;
  const parts = [customer ? 'customer' : '', owner ? 'owner' : '', worker ? `worker:${worker.id}:${worker.token}` : ''].filter(Boolean);
  return {
    key: parts.join('|'),
    protocols: worker ? [PROTOCOL, `token.${worker.token}`] : [PROTOCOL],
    // Any one of the person's ids brings the batch of all their channels; the owner's is certain.
    register: owner ? { userId: 'owner', role: 'owner' } : worker ? { userId: worker.id, role: 'worker' } : null,
  };
}

/** Whether going from one identity to the next drops someone (their notifications must not stay). */
export function identityNarrowed(previousKey: string | null, nextKey: string | null): boolean {
  if (!previousKey) return false;
  const next = new Set(nextKey ? nextKey.split('|') : []);
  return previousKey.split('|').some((part) => !next.has(part));
}
