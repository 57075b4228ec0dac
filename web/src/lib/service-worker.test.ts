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

/** A response as the worker sees one: a status, a type and a body to tell copies apart. */
interface FakeResponse {
  status: number;
  type: string;
  body: string;
  clone(): FakeResponse;
}

function response(body: string, status = 200, type = 'basic'): FakeResponse {
  return { status, type, body, clone: () => response(body, status, type) };
}

class FakeRequest {
  url: string;
  method: string;
  mode: string;
  headers: { get(name: string): string | null };
  constructor(url: string, init: { method?: string; mode?: string; headers?: Record<string, string> } = {}) {
    this.url = new URL(url, ORIGIN).href;
    this.method = init.method ?? 'GET';
    this.mode = init.mode ?? 'cors';
    const headers = Object.fromEntries(Object.entries(init.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
    this.headers = { get: (name) => headers[name.toLowerCase()] ?? null };
  }
}

/** CacheStorage in memory: cache name → URL → response. */
function fakeCaches(initial: Record<string, Record<string, FakeResponse>> = {}) {
  const store = new Map<string, Map<string, FakeResponse>>(Object.entries(initial).map(([name, entries]) => [name, new Map(Object.entries(entries))]));
  const keyOf = (request: string | FakeRequest) => (typeof request === 'string' ? new URL(request, ORIGIN).href : request.url);
  const open = async (name: string) => {
    if (!store.has(name)) store.set(name, new Map());
    const entries = store.get(name)!;
    return {
      put: async (request: string | FakeRequest, res: FakeResponse) => void entries.set(keyOf(request), res),
      match: async (request: string | FakeRequest) => entries.get(keyOf(request)),
    };
  };
  return {
    api: { open, keys: async () => [...store.keys()], delete: async (name: string) => store.delete(name) },
    /** What a cache holds: URL path → body. */
    contents: (name: string) => Object.fromEntries([...(store.get(name) ?? new Map<string, FakeResponse>())].map(([url, res]) => [new URL(url).pathname, res.body])),
    names: () => [...store.keys()],
  };
}

const CURRENT_CACHE = 'fixly-shell-v2';

function loadServiceWorker(
  tabs: Tab[] = [],
  { network = () => response('from the network'), cached = {} }: { network?: (url: string) => FakeResponse; cached?: Record<string, Record<string, FakeResponse>> } = {},
) {
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
  const fetched: string[] = [];
  const fetch = async (input: string | FakeRequest, init?: { method?: string; body?: string }) => {
    const url = typeof input === 'string' ? new URL(input, ORIGIN).href : input.url;
    if (init?.method === 'POST') {
      posted.push({ url: new URL(url).pathname, body: JSON.parse(init.body!) });
      return { ok: true, status: 200 };
    }
    fetched.push(new URL(url).pathname);
    return network(url);
  };
  const caches = fakeCaches(cached);
  vm.runInNewContext(source, { self, URL, fetch, caches: caches.api, Request: FakeRequest });

  /** Dispatches an event and waits for what it handed to waitUntil. */
  async function dispatch(type: string, event: Record<string, unknown>) {
    const pending: Promise<unknown>[] = [];
    listeners.get(type)!({ ...event, waitUntil: (p: Promise<unknown>) => pending.push(p) });
    // waitUntil may be called again while the first promises settle (a fetch keeps its copy later).
    for (let done = 0; done < pending.length; done = pending.length) await Promise.all(pending.slice(done));
  }

  /** A fetch event: what the worker answered (undefined when it let the browser handle it). */
  async function request(url: string, init: { method?: string; mode?: string; headers?: Record<string, string> } = {}) {
    let answer: Promise<FakeResponse> | undefined;
    const pending: Promise<unknown>[] = [];
    listeners.get('fetch')!({
      request: new FakeRequest(url, init),
      respondWith: (p: Promise<FakeResponse>) => (answer = p),
      waitUntil: (p: Promise<unknown>) => pending.push(p),
    });
    const result = answer ? await answer.catch((error: Error) => ({ failed: error.message })) : undefined;
    for (let done = 0; done < pending.length; done = pending.length) await Promise.all(pending.slice(done));
    return result;
  }
  const pushData = (text: string) => ({ json: () => JSON.parse(text), text: () => text });
  return { dispatch, request, shown, opened, pushData, posted, subscribedWith, fetched, caches };
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

describe('the service worker keeps the app shell for offline use', () => {
  const offline = () => {
    throw new TypeError('Failed to fetch');
  };

  it("answers only the site's own GETs: never /api/, other origins, other methods, the video, ranges or Vite's ping", async () => {
    const sw = loadServiceWorker();

    const untouched = [
      await sw.request(`${ORIGIN}/api/jobs/worker/w-1`),
      await sw.request(`${ORIGIN}/api/requests`, { method: 'POST' }),
      await sw.request(`${ORIGIN}/worker/dashboard`, { method: 'POST' }),
      await sw.request('https://tile.openstreetmap.org/1/2/3.png'),
      await sw.request(`${ORIGIN}/media/background.mp4`),
      await sw.request(`${ORIGIN}/media/background.webm`),
      await sw.request(`${ORIGIN}/src/main.tsx`, { headers: { Range: 'bytes=0-99' } }),
      await sw.request(`${ORIGIN}/`, { headers: { Accept: 'text/x-vite-ping' } }),
      await sw.request(`${ORIGIN}/sw.js`),
    ];

    expect(untouched).toEqual(Array(untouched.length).fill(undefined));
    expect(await sw.request(`${ORIGIN}/src/main.tsx`)).toMatchObject({ body: 'from the network' });
    expect(await sw.request(`${ORIGIN}/media/background-poster.webp`)).toMatchObject({ body: 'from the network' });
  });

  it('goes to the network first while online and keeps a copy, and a page load refreshes the shell for every route', async () => {
    const sw = loadServiceWorker([], { network: (url) => response(`fresh ${new URL(url).pathname}`) });

    const page = await sw.request(`${ORIGIN}/worker/dashboard`, { mode: 'navigate' });
    const script = await sw.request(`${ORIGIN}/src/features/worker/dashboard-page.tsx`);

    expect(page).toMatchObject({ body: 'fresh /worker/dashboard' });
    expect(script).toMatchObject({ body: 'fresh /src/features/worker/dashboard-page.tsx' });
    expect(sw.caches.contents(CURRENT_CACHE)).toEqual({
      '/worker/dashboard': 'fresh /worker/dashboard',
      '/index.html': 'fresh /index.html',
      '/src/features/worker/dashboard-page.tsx': 'fresh /src/features/worker/dashboard-page.tsx',
    });
  });

  it('answers from the cache without a network, with the shell for a page never opened, and fails what it never kept', async () => {
    const sw = loadServiceWorker([], {
      network: offline,
      cached: {
        [CURRENT_CACHE]: {
          [`${ORIGIN}/index.html`]: response('the shell'),
          [`${ORIGIN}/`]: response('the prerendered home page'),
          [`${ORIGIN}/src/main.tsx`]: response('kept main'),
        },
      },
    });

    expect(await sw.request(`${ORIGIN}/worker/dashboard`, { mode: 'navigate' })).toMatchObject({ body: 'the shell' });
    expect(await sw.request(`${ORIGIN}/`, { mode: 'navigate' })).toMatchObject({ body: 'the prerendered home page' });
    expect(await sw.request(`${ORIGIN}/src/main.tsx`)).toMatchObject({ body: 'kept main' });
    expect(await sw.request(`${ORIGIN}/src/never-loaded.tsx`)).toEqual({ failed: 'Failed to fetch' });
  });

  it('keeps only whole successful answers: not an error page, a partial answer or an opaque one', async () => {
    const answers: Record<string, FakeResponse> = {
      '/missing.js': response('not found', 404),
      '/partial.js': response('part', 206),
      '/opaque.js': response('', 0, 'opaque'),
    };
    const sw = loadServiceWorker([], { network: (url) => answers[new URL(url).pathname]! });

    for (const path of Object.keys(answers)) await sw.request(`${ORIGIN}${path}`);

    expect(sw.caches.contents(CURRENT_CACHE)).toEqual({});
  });

  it("serves Vite's content-hashed build files from the cache once kept, since a new build renames them", async () => {
    const sw = loadServiceWorker([], { cached: { [CURRENT_CACHE]: { [`${ORIGIN}/assets/index-abc123.js`]: response('kept bundle') } } });

    expect(await sw.request(`${ORIGIN}/assets/index-abc123.js`)).toMatchObject({ body: 'kept bundle' });
    expect(await sw.request(`${ORIGIN}/assets/other-def456.js`)).toMatchObject({ body: 'from the network' });
    expect(sw.fetched).toEqual(['/assets/other-def456.js']);
    expect(sw.caches.contents(CURRENT_CACHE)['/assets/other-def456.js']).toBe('from the network');
  });

  it('keeps the shell, manifest and icons on install, even when one of them cannot be fetched', async () => {
    const sw = loadServiceWorker([], { network: (url) => (url.endsWith('/favicon.svg') ? offline() : response(`file ${new URL(url).pathname}`)) });

    await sw.dispatch('install', {});

    expect(Object.keys(sw.caches.contents(CURRENT_CACHE)).sort()).toEqual(['/icons/icon-192.png', '/icons/icon-512.png', '/index.html', '/manifest.webmanifest']);
  });

  it("deletes the older versions' caches on activate and leaves other caches alone", async () => {
    const sw = loadServiceWorker([], { cached: { 'fixly-shell-v0': {}, [CURRENT_CACHE]: {}, 'someone-else': {} } });

    await sw.dispatch('activate', {});

    expect(sw.caches.names().sort()).toEqual([CURRENT_CACHE, 'someone-else']);
  });

  it('keeps what a page loaded before it was controlled, by the same rules, and says when it is done', async () => {
    const sw = loadServiceWorker();
    const replies: unknown[] = [];

    await sw.dispatch('message', {
      data: {
        type: 'cache-urls',
        urls: [`${ORIGIN}/worker/dashboard`, `${ORIGIN}/src/main.tsx`, `${ORIGIN}/api/workers/me`, 'https://cdn.example/x.js', `${ORIGIN}/src/main.tsx`],
      },
      ports: [{ postMessage: (message: unknown) => replies.push(message) }],
    });

    expect(Object.keys(sw.caches.contents(CURRENT_CACHE)).sort()).toEqual(['/src/main.tsx', '/worker/dashboard']);
    expect(replies).toEqual([{ type: 'cached', kept: 2 }]);
  });
});
