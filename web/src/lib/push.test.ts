import { describe, expect, it } from 'vitest';
import { ApiError } from './api';
import {
  currentPushState,
  disablePush,
  enablePush,
  pushStateLabels,
  pushStateOf,
  sendTestPush,
  subscribeBody,
  urlBase64ToUint8Array,
  type PushPlatform,
  type PushServer,
  type PushSubscriptionLike,
  type RegistrationLike,
} from './push';

// A real VAPID public key's shape: 65 bytes, uncompressed P-256 point (0x04 first).
const KEY = 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM';
const OTHER_KEY = `BA${KEY.slice(2)}`;

/** A browser with a push manager whose subscriptions live in memory. */
function fakeBrowser(options: { supported?: boolean; permission?: NotificationPermission; grant?: NotificationPermission; registered?: boolean; subscribedWith?: string; keys?: { p256dh?: string; auth?: string } } = {}) {
  let permission = options.permission ?? 'default';
  let registered = options.registered ?? false;
  let subscription: (PushSubscriptionLike & { active: boolean }) | null = null;
  const makeSubscription = (key: Uint8Array, n: number) => {
    const sub: PushSubscriptionLike & { active: boolean } = {
      active: true,
      endpoint: `https://push.example.test/sub/${n}`,
      options: { applicationServerKey: key.slice().buffer },
      toJSON: () => ({ endpoint: sub.endpoint, expirationTime: null, keys: options.keys ?? { p256dh: 'p256dh-key', auth: 'auth-secret' } }),
      unsubscribe: async () => {
        sub.active = false;
        if (subscription === sub) subscription = null;
        return true;
      },
    };
    return sub;
  };
  let count = 0;
  if (options.subscribedWith) subscription = makeSubscription(urlBase64ToUint8Array(options.subscribedWith), ++count);
  const registration: RegistrationLike = {
    pushManager: {
      getSubscription: async () => subscription,
      subscribe: async ({ applicationServerKey }) => (subscription = makeSubscription(applicationServerKey, ++count)),
    },
  };
  const platform: PushPlatform = {
    supported: options.supported ?? true,
    permission: () => permission,
    requestPermission: async () => (permission = options.grant ?? 'granted'),
    existingRegistration: async () => (registered ? registration : undefined),
    register: async () => {
      registered = true;
      return registration;
    },
    userAgent: 'TestBrowser/1.0',
  };
  return { platform, subscription: () => subscription, registered: () => registered };
}

/** The server's side, recording calls; each call can be made to fail. */
function fakeServer(overrides: Partial<PushServer> = {}) {
  const calls: { name: string; arg?: unknown }[] = [];
  const record = <A>(name: string, fn: (arg: A) => Promise<unknown>) => async (arg: A) => {
    calls.push({ name, arg });
    return fn(arg);
  };
  const server: PushServer = {
    vapidPublicKey: record('vapidPublicKey', overrides.vapidPublicKey ?? (async () => KEY)) as PushServer['vapidPublicKey'],
    subscribe: record('subscribe', overrides.subscribe ?? (async () => undefined)) as PushServer['subscribe'],
    unsubscribe: record('unsubscribe', overrides.unsubscribe ?? (async () => undefined)) as PushServer['unsubscribe'],
    verify: record('verify', overrides.verify ?? (async () => true)) as PushServer['verify'],
    test: record('test', overrides.test ?? (async () => undefined)) as PushServer['test'],
  };
  return { server, calls, names: () => calls.map((c) => c.name) };
}

describe('pushStateOf', () => {
  it('is unsupported, Blocked, Push Enabled or available', () => {
    expect(pushStateOf({ supported: false, permission: 'granted', subscribed: true })).toBe('unsupported');
    expect(pushStateOf({ supported: true, permission: 'denied', subscribed: true })).toBe('blocked');
    expect(pushStateOf({ supported: true, permission: 'granted', subscribed: true })).toBe('subscribed');
    expect(pushStateOf({ supported: true, permission: 'granted', subscribed: false })).toBe('available');
    expect(pushStateOf({ supported: true, permission: 'default', subscribed: false })).toBe('available');
    expect([pushStateLabels.blocked, pushStateLabels.subscribed]).toEqual(['Blocked', 'Push Enabled']);
  });
});

describe('urlBase64ToUint8Array', () => {
  it('decodes the base64url VAPID key to its 65 bytes, with or without padding', () => {
    const bytes = urlBase64ToUint8Array(KEY);

    expect(bytes).toHaveLength(65);
    expect(bytes[0]).toBe(4);
    expect(Buffer.from(bytes).toString('base64url')).toBe(KEY);
    expect(Array.from(urlBase64ToUint8Array('_-8'))).toEqual([0xff, 0xef]);
    expect(Array.from(urlBase64ToUint8Array('_-8='))).toEqual([0xff, 0xef]);
  });

  it('refuses text that is not base64url', () => {
    expect(() => urlBase64ToUint8Array('not a key!')).toThrow('VAPID public key not available');
  });
});

describe('subscribeBody', () => {
  it("is the subscription's endpoint and keys with the user agent", () => {
    expect(subscribeBody({ endpoint: 'https://push.example.test/1', keys: { p256dh: 'p', auth: 'a' } }, 'UA')).toEqual({
      endpoint: 'https://push.example.test/1',
      keys: { p256dh: 'p', auth: 'a' },
      userAgent: 'UA',
    });
  });

  it("refuses a subscription without both keys with 'Missing subscription keys'", () => {
    expect(() => subscribeBody({ endpoint: 'https://push.example.test/1', keys: { p256dh: 'p' } }, 'UA')).toThrow('Missing subscription keys');
    expect(() => subscribeBody({ endpoint: 'https://push.example.test/1' }, 'UA')).toThrow('Missing subscription keys');
  });
});

describe('enablePush', () => {
  it('asks permission, registers the service worker, subscribes with the server key and stores it on the server', async () => {
    // Prepare
    const browser = fakeBrowser();
    const { server, calls } = fakeServer();

    // Act
    const state = await enablePush(browser.platform, server);

    // Assess
    expect(state).toBe('subscribed');
    expect(browser.registered()).toBe(true);
    expect(calls.find((c) => c.name === 'subscribe')?.arg).toEqual({
      endpoint: browser.subscription()!.endpoint,
      keys: { p256dh: 'p256dh-key', auth: 'auth-secret' },
      userAgent: 'TestBrowser/1.0',
    });
  });

  it('replaces a browser subscription made with another server key', async () => {
    const browser = fakeBrowser({ permission: 'granted', registered: true, subscribedWith: OTHER_KEY });
    const old = browser.subscription()!;
    const { server } = fakeServer();

    await enablePush(browser.platform, server);

    expect((old as { active: boolean }).active).toBe(false);
    expect(browser.subscription()!.endpoint).not.toBe(old.endpoint);
  });

  it("fails with 'Permission {status}' when notifications are not granted, registering nothing", async () => {
    const browser = fakeBrowser({ grant: 'denied' });
    const { server, names } = fakeServer();

    await expect(enablePush(browser.platform, server)).rejects.toThrow('Permission denied: User did not grant notification permission');
    expect(browser.registered()).toBe(false);
    expect(names()).toEqual([]);
  });

  it('fails saying so in an unsupported browser, without a server key, or with a subscription missing keys', async () => {
    await expect(enablePush(fakeBrowser({ supported: false }).platform, fakeServer().server)).rejects.toThrow('not supported in this browser');
    await expect(enablePush(fakeBrowser().platform, fakeServer({ vapidPublicKey: async () => undefined }).server)).rejects.toThrow('VAPID public key not available');
    await expect(enablePush(fakeBrowser({ keys: { p256dh: 'p' } }).platform, fakeServer().server)).rejects.toThrow('Missing subscription keys');
  });

  it("gives up with a way forward when the browser's push service never answers (offline)", async () => {
    // Prepare
    const browser = fakeBrowser();
    const registration = await browser.platform.register();
    registration!.pushManager.subscribe = () => new Promise(() => undefined);
    const { server, names } = fakeServer();

    // Act
    const attempt = enablePush(browser.platform, server, 20);

    // Assess
    await expect(attempt).rejects.toThrow("The browser's push service did not answer. Check your connection and try again.");
    expect(names()).not.toContain('subscribe');
  });

  it("fails with 'Server subscription failed: <the server's message>' when the server refuses", async () => {
    const refused = new ApiError(401, '401: {}', { message: 'Push notifications are for signed-in people.' });
    const { server } = fakeServer({ subscribe: async () => Promise.reject(refused) });

    await expect(enablePush(fakeBrowser().platform, server)).rejects.toThrow('Server subscription failed: Push notifications are for signed-in people.');
  });
});

describe('currentPushState', () => {
  it('is Push Enabled when an earlier service worker holds a subscription the server knows', async () => {
    const browser = fakeBrowser({ permission: 'granted', registered: true, subscribedWith: KEY });
    const { server, names } = fakeServer();

    expect(await currentPushState(browser.platform, server)).toBe('subscribed');
    expect(names()).toEqual(['verify']);
  });

  it('removes the subscription locally when the server answers 404 to verify, and is available', async () => {
    // Prepare
    const browser = fakeBrowser({ permission: 'granted', registered: true, subscribedWith: KEY });
    const sub = browser.subscription()!;
    const { server } = fakeServer({ verify: async () => false });

    // Act
    const state = await currentPushState(browser.platform, server);

    // Assess
    expect(state).toBe('available');
    expect((sub as { active: boolean }).active).toBe(false);
  });

  it('keeps the subscription when the check itself fails (offline)', async () => {
    const browser = fakeBrowser({ permission: 'granted', registered: true, subscribedWith: KEY });
    const { server } = fakeServer({ verify: async () => Promise.reject(new TypeError('Failed to fetch')) });

    expect(await currentPushState(browser.platform, server)).toBe('subscribed');
    expect(browser.subscription()).not.toBeNull();
  });

  it('registers no service worker and asks the server nothing when push was never enabled', async () => {
    const browser = fakeBrowser();
    const { server, names } = fakeServer();

    expect(await currentPushState(browser.platform, server)).toBe('available');
    expect(browser.registered()).toBe(false);
    expect(names()).toEqual([]);
  });

  it('is Blocked when notifications are denied, and unsupported without the push APIs', async () => {
    expect(await currentPushState(fakeBrowser({ permission: 'denied' }).platform, fakeServer().server)).toBe('blocked');
    expect(await currentPushState(fakeBrowser({ supported: false }).platform, fakeServer().server)).toBe('unsupported');
  });
});

describe('disablePush and sendTestPush', () => {
  it('tells the server first, then unsubscribes the browser', async () => {
    const browser = fakeBrowser({ permission: 'granted', registered: true, subscribedWith: KEY });
    const endpoint = browser.subscription()!.endpoint;
    const { server, calls } = fakeServer();

    const state = await disablePush(browser.platform, server);

    expect(state).toBe('available');
    expect(calls).toEqual([{ name: 'unsubscribe', arg: endpoint }]);
    expect(browser.subscription()).toBeNull();
  });

  it("keeps the browser subscribed when the server could not forget it", async () => {
    const browser = fakeBrowser({ permission: 'granted', registered: true, subscribedWith: KEY });
    const { server } = fakeServer({ unsubscribe: async () => Promise.reject(new ApiError(500, '500: oops', null)) });

    await expect(disablePush(browser.platform, server)).rejects.toThrow('500: oops');
    expect(browser.subscription()).not.toBeNull();
  });

  it("fails the test with 'Test notification failed: <the server's message>'", async () => {
    const none = new ApiError(404, '404: {}', { message: 'No push subscription for this browser. Enable push first.' });

    await expect(sendTestPush(fakeServer({ test: async () => Promise.reject(none) }).server)).rejects.toThrow(
      'Test notification failed: No push subscription for this browser. Enable push first.',
    );
  });
});
