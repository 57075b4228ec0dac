import { api, ApiError, errorMessage } from './api';
import { SERVICE_WORKER_URL } from './offline-shell';
import { readWorkerToken } from './worker-token';

/**
 * Web push in the browser: the four states of the push control, and enabling, checking, testing
 * and disabling push through the /api/push calls. The
 * browser's APIs come in through `PushPlatform`, so the flows run in tests with a fake one; the
 * service worker itself is web/public/sw.js, registered for every visitor after the page loads
 * (lib/offline-app.ts); enabling push registers it too (the same registration when it already is),
 * so push never depends on that having happened yet.
 */

export type PushState = 'unsupported' | 'blocked' | 'subscribed' | 'available';

/** What the control says for each state (unsupported, Blocked, Push Enabled, available). */
export const pushStateLabels: Record<PushState, string> = {
  unsupported: 'Push not supported',
  blocked: 'Blocked',
  subscribed: 'Push Enabled',
  available: 'Push available',
};

export const pushTexts = {
  enableFailed: 'Failed to enable push notifications',
  disableFailed: 'Failed to disable push notifications',
  testFailed: 'Failed to send test notification',
  missingKeys: 'Missing subscription keys',
  unsupported: 'Push notifications are not supported in this browser',
  noRegistration: 'Service worker registration not found',
  noKey: 'VAPID public key not available',
  enabled: 'Push notifications enabled',
  disabled: 'Push notifications disabled',
  testSent: 'Test notification sent',
  blockedHint: 'Notifications are blocked for this site. Allow them in your browser settings to enable push.',
  noAnswer: "The browser's push service did not answer. Check your connection and try again.",
} as const;

/** How long the browser may take to register the service worker or reach its push service. */
export const BROWSER_PUSH_TIMEOUT_MS = 30_000;

/** The promise, or a rejection with `message` once `ms` have passed (offline, the browser may never answer). */
export function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export function permissionError(status: NotificationPermission): string {
  return `Permission ${status}: User did not grant notification permission`;
}

export function serverSubscriptionFailed(error: unknown): string {
  return `Server subscription failed: ${errorMessage(error) ?? 'Please try again.'}`;
}

export function testNotificationFailed(error: unknown): string {
  return `Test notification failed: ${errorMessage(error) ?? 'Please try again.'}`;
}

export function pushStateOf(input: { supported: boolean; permission: NotificationPermission; subscribed: boolean }): PushState {
  if (!input.supported) return 'unsupported';
  if (input.permission === 'denied') return 'blocked';
  if (input.subscribed && input.permission === 'granted') return 'subscribed';
  return 'available';
}

/** The VAPID public key (base64url, as the server sends it) as the applicationServerKey bytes. */
export function urlBase64ToUint8Array(base64url: string): Uint8Array<ArrayBuffer> {
  if (!/^[A-Za-z0-9_-]*={0,2}$/.test(base64url)) throw new Error(pushTexts.noKey);
  const base64 = base64url.replace(/=+$/, '').replace(/-/g, '+').replace(/_/g, '/');
  const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export function sameBytes(a: ArrayBuffer | ArrayBufferView | null | undefined, b: Uint8Array): boolean {
  if (!a) return false;
  const left = a instanceof ArrayBuffer ? new Uint8Array(a) : new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  return left.length === b.length && left.every((byte, i) => byte === b[i]);
}

export interface PushSubscribeBody {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  userAgent: string;
}

/** POST /api/push/subscribe's body from PushSubscription.toJSON(); both keys or 'Missing subscription keys'. */
export function subscribeBody(json: PushSubscriptionJSON, userAgent: string): PushSubscribeBody {
  const p256dh = json.keys?.p256dh;
  const auth = json.keys?.auth;
  if (!json.endpoint || !p256dh || !auth) throw new Error(pushTexts.missingKeys);
  return { endpoint: json.endpoint, keys: { p256dh, auth }, userAgent: userAgent.slice(0, 500) };
}

// ---------------------------------------------------------------------------------------------
// The browser, as far as push needs it

export interface PushSubscriptionLike {
  endpoint: string;
  options?: { applicationServerKey: ArrayBuffer | null };
  toJSON(): PushSubscriptionJSON;
  unsubscribe(): Promise<boolean>;
}

export interface RegistrationLike {
  pushManager: {
    getSubscription(): Promise<PushSubscriptionLike | null>;
    subscribe(options: { userVisibleOnly: boolean; applicationServerKey: Uint8Array<ArrayBuffer> }): Promise<PushSubscriptionLike>;
  };
}

export interface PushPlatform {
  supported: boolean;
  permission(): NotificationPermission;
  requestPermission(): Promise<NotificationPermission>;
  /** The service worker registered earlier, if any (registers nothing). */
  existingRegistration(): Promise<RegistrationLike | undefined>;
  /** Registers /sw.js and waits until it is active. */
  register(): Promise<RegistrationLike | undefined>;
  userAgent: string;
}

export { SERVICE_WORKER_URL };

export function browserPushPlatform(): PushPlatform {
  const supported =
    typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
  return {
    supported,
    permission: () => (supported ? Notification.permission : 'default'),
    requestPermission: () => Notification.requestPermission(),
    existingRegistration: async () => (supported ? ((await navigator.serviceWorker.getRegistration(SERVICE_WORKER_URL)) ?? undefined) : undefined),
    register: async () => {
      if (!supported) return undefined;
      await navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: '/' });
      return navigator.serviceWorker.ready;
    },
    userAgent: typeof navigator === 'undefined' ? '' : navigator.userAgent,
  };
}

/** The server side of push, through the one API client (with the worker's token when signed in as one). */
export interface PushServer {
  vapidPublicKey(): Promise<string | undefined>;
  subscribe(body: PushSubscribeBody): Promise<void>;
  unsubscribe(endpoint: string): Promise<void>;
  /** false when the server does not hold the subscription for this caller (404). */
  verify(endpoint: string): Promise<boolean>;
  test(): Promise<void>;
}

export function apiPushServer(): PushServer {
  const options = () => ({ token: readWorkerToken() });
  return {
    vapidPublicKey: async () => (await api('GET /api/push/vapid-public-key', options())).publicKey || undefined,
    subscribe: async (body) => {
      await api('POST /api/push/subscribe', { body, ...options() });
    },
    unsubscribe: async (endpoint) => {
      try {
        await api('POST /api/push/unsubscribe', { body: { endpoint }, ...options() });
      } catch (error) {
        // A 404 is ignored: the server had already forgotten it, which is what was asked.
        if (!(error instanceof ApiError && error.status === 404)) throw error;
      }
    },
    verify: async (endpoint) => {
      try {
        await api('POST /api/push/verify-subscription', { body: { endpoint }, ...options() });
        return true;
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return false;
        throw error;
      }
    },
    test: async () => {
      await api('POST /api/push/test', options());
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The flows

/**
 * The state on arrival, without registering anything: push is on when a service worker registered
 * earlier holds a subscription the server still knows for this caller. A 404 from the server
 * removes the subscription locally, so the browser and the server agree; a failed check leaves it as it is.
 */
export async function currentPushState(platform: PushPlatform, server: PushServer): Promise<PushState> {
  if (!platform.supported) return 'unsupported';
  const permission = platform.permission();
  if (permission === 'denied') return 'blocked';
  const registration = await platform.existingRegistration();
  const subscription = await registration?.pushManager.getSubscription();
  if (!subscription) return pushStateOf({ supported: true, permission, subscribed: false });
  let known = true;
  try {
    known = await server.verify(subscription.endpoint);
  } catch {
    // Offline or a server hiccup: keep what the browser has.
  }
  if (!known) {
    await subscription.unsubscribe().catch(() => false);
    return pushStateOf({ supported: true, permission, subscribed: false });
  }
  return pushStateOf({ supported: true, permission, subscribed: true });
}

/**
 * Enable push: permission, the service worker, the server's key, the browser's subscription (a
 * new one when it was made with another key), then the server stores it. Throws pushTexts, the words the control shows.
 */
export async function enablePush(platform: PushPlatform, server: PushServer, timeoutMs = BROWSER_PUSH_TIMEOUT_MS): Promise<PushState> {
  if (!platform.supported) throw new Error(pushTexts.unsupported);
  const permission = platform.permission() === 'granted' ? 'granted' : await platform.requestPermission();
  if (permission !== 'granted') throw new Error(permissionError(permission));
  const registration = await withTimeout(platform.register(), timeoutMs, pushTexts.noRegistration);
  if (!registration) throw new Error(pushTexts.noRegistration);
  const publicKey = await server.vapidPublicKey();
  if (!publicKey) throw new Error(pushTexts.noKey);
  const applicationServerKey = urlBase64ToUint8Array(publicKey);
  let subscription = await registration.pushManager.getSubscription();
  if (subscription && !sameBytes(subscription.options?.applicationServerKey, applicationServerKey)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await withTimeout(registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey }), timeoutMs, pushTexts.noAnswer);
  const body = subscribeBody(subscription.toJSON(), platform.userAgent);
  try {
    await server.subscribe(body);
  } catch (error) {
    throw new Error(serverSubscriptionFailed(error), { cause: error });
  }
  return 'subscribed';
}

/** Disable push: the server forgets it (404 ignored), then the browser unsubscribes. */
export async function disablePush(platform: PushPlatform, server: PushServer): Promise<PushState> {
  const registration = await platform.existingRegistration();
  const subscription = await registration?.pushManager.getSubscription();
  if (subscription) {
    await server.unsubscribe(subscription.endpoint);
    await subscription.unsubscribe();
  }
  return pushStateOf({ supported: platform.supported, permission: platform.permission(), subscribed: false });
}

export async function sendTestPush(server: PushServer): Promise<void> {
  try {
    await server.test();
  } catch (error) {
    throw new Error(testNotificationFailed(error), { cause: error });
  }
}
