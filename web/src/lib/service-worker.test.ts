import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';

/** web/public/sw.js run as a browser runs it: a script with `self`, its events dispatched by hand. */
const source = readFileSync(fileURLToPath(new URL('../../public/sw.js', import.meta.url)), 'utf8');
const ORIGIN = 'https://fixly.example';

interface Tab {
  url: string;
  focused: boolean;
  focus(): Promise<Tab>;
}

function loadServiceWorker(tabs: Tab[] = []) {
  const listeners = new Map<string, (event: unknown) => void>();
  const shown: { title: string; options: Record<string, unknown> }[] = [];
  const opened: string[] = [];
  const posted: { url: string; body: unknown }[] = [];
  const subscribedWith: unknown[] = [];
  const self = {
    location: { origin: ORIGIN },
    addEventListener: (type: string, listener: (event: unknown) => void) => listeners.set(type, listener),
    skipWaiting: () => Promise.resolve(),
    registration: {
      showNotification: async (title: string, options: Record<string, unknown>) => {
        shown.push({ title, options });
      },
      pushManager: {
        subscribe: async (options: unknown) => {
          subscribedWith.push(options);
          return subscription('https://push.example/fresh-by-worker');
        },
      },
    },
    clients: {
      claim: () => Promise.resolve(),
      matchAll: async () => tabs,
      openWindow: async (url: string) => {
        opened.push(url);
        return null;
      },
    },
  };
  const fetch = async (url: string, init: { body: string }) => {
    posted.push({ url, body: JSON.parse(init.body) });
    return { ok: true, status: 200 };
  };
  vm.runInNewContext(source, { self, URL, fetch });

  /** Dispatches an event and waits for what it handed to waitUntil. */
  async function dispatch(type: string, event: Record<string, unknown>) {
    const pending: Promise<unknown>[] = [];
    listeners.get(type)!({ ...event, waitUntil: (p: Promise<unknown>) => pending.push(p) });
    await Promise.all(pending);
  }
  const pushData = (text: string) => ({ json: () => JSON.parse(text), text: () => text });
  return { dispatch, shown, opened, pushData, posted, subscribedWith };
}

function subscription(endpoint: string, applicationServerKey?: ArrayBuffer) {
  const keys = { p256dh: `p256dh-of-${endpoint}`, auth: `auth-of-${endpoint}` };
  return { endpoint, options: { applicationServerKey }, toJSON: () => ({ endpoint, expirationTime: null, keys }) };
}

function tab(url: string): Tab {
  const t: Tab = { url, focused: false, focus: async () => ((t.focused = true), t) };
  return t;
}

describe('the service worker (web/public/sw.js)', () => {
  it("shows a push as a notification with the payload's title, body and tag, keeping its page", async () => {
    // Prepare
    const sw = loadServiceWorker();
    const payload = { title: 'Test notification', body: 'Push notifications are working on this device.', url: '/worker/dashboard', tag: 'test' };

    // Act
    await sw.dispatch('push', { data: sw.pushData(JSON.stringify(payload)) });

    // Assess
    expect(sw.shown).toEqual([
      {
        title: 'Test notification',
        options: { body: 'Push notifications are working on this device.', tag: 'test', renotify: true, data: { url: `${ORIGIN}/worker/dashboard` } },
      },
    ]);
  });

  it('still shows something for a push without JSON or without data', async () => {
    const sw = loadServiceWorker();

    await sw.dispatch('push', { data: { json: () => JSON.parse('plain words'), text: () => 'plain words' } });
    await sw.dispatch('push', { data: null });

    expect(sw.shown.map((n) => [n.title, n.options.body])).toEqual([
      ['Fixly', 'plain words'],
      ['Fixly', ''],
    ]);
  });

  it("focuses a tab already on the notification's page instead of opening another", async () => {
    // Prepare
    const elsewhere = tab(`${ORIGIN}/`);
    const there = tab(`${ORIGIN}/client-dashboard`);
    const sw = loadServiceWorker([elsewhere, there]);
    let closed = false;

    // Act
    await sw.dispatch('notificationclick', { notification: { data: { url: `${ORIGIN}/client-dashboard` }, close: () => (closed = true) } });

    // Assess
    expect(closed).toBe(true);
    expect(there.focused).toBe(true);
    expect(elsewhere.focused).toBe(false);
    expect(sw.opened).toEqual([]);
  });

  it('opens the page when no tab shows it, and never a page of another site', async () => {
    const sw = loadServiceWorker([tab(`${ORIGIN}/`)]);

    await sw.dispatch('notificationclick', { notification: { data: { url: `${ORIGIN}/invoices` }, close: () => undefined } });
    await sw.dispatch('push', { data: sw.pushData(JSON.stringify({ title: 't', body: 'b', url: 'https://evil.example/phish', tag: 'x' })) });

    expect(sw.opened).toEqual([`${ORIGIN}/invoices`]);
    expect(sw.shown[0]!.options.data).toEqual({ url: `${ORIGIN}/` });
  });

  it("hands the browser's replacement subscription to the server with the old endpoint as proof", async () => {
    // Prepare
    const sw = loadServiceWorker();
    const old = subscription('https://push.example/old');

    // Act
    await sw.dispatch('pushsubscriptionchange', { oldSubscription: old, newSubscription: subscription('https://push.example/new') });

    // Assess
    expect(sw.subscribedWith).toEqual([]);
    expect(sw.posted).toEqual([
      {
        url: '/api/push/renew',
        body: { oldEndpoint: 'https://push.example/old', endpoint: 'https://push.example/new', keys: { p256dh: 'p256dh-of-https://push.example/new', auth: 'auth-of-https://push.example/new' }, expirationTime: null },
      },
    ]);
  });

  it('subscribes again with the same server key when the browser gave no new subscription', async () => {
    // Prepare
    const sw = loadServiceWorker();
    const key = new Uint8Array([4, 1, 2, 3]).buffer;

    // Act
    await sw.dispatch('pushsubscriptionchange', { oldSubscription: subscription('https://push.example/old', key) });

    // Assess
    expect(sw.subscribedWith).toEqual([{ userVisibleOnly: true, applicationServerKey: key }]);
    expect(sw.posted.map((p) => (p.body as { endpoint: string }).endpoint)).toEqual(['https://push.example/fresh-by-worker']);
  });

  it('does nothing when the browser does not say which subscription it replaced', async () => {
    // Prepare
    const sw = loadServiceWorker();

    // Act
    await sw.dispatch('pushsubscriptionchange', {});

    // Assess
    expect(sw.posted).toEqual([]);
  });
});
