/* The service worker at /sw.js, registered for every visitor after the
 * page loads (web/src/lib/offline-app.ts) and by push when it is enabled.
 *
 * Push: shows each web push as a notification and, on a click, focuses a tab already showing its
 * page or opens one. The push payload is the JSON functions/realtime/push.ts sends: { title, body, url,
 * tag }. When the browser replaces the subscription, it hands the new one to the server.
 *
 * Offline: keeps the app shell (the page, its scripts and styles, the manifest and icons) so an
 * installed app opens without a network; the screens show what they last loaded themselves (the
 * worker's jobs: web/src/lib/offline-jobs.ts). Only same-origin GETs of the site's own files are
 * kept: never /api/ (answers belong to one signed-in person and must be fresh), never the background video,
 * never another origin. Pages and files are fetched network first, so a deploy (or the Vite dev
 * server's fresh modules) always wins while online; the cache answers only when the network cannot.
 * Vite's content-hashed build files under /assets/ never change, so they are served from the cache.
 * Bump CACHE_VERSION when these rules change: activation deletes every other version's cache. */

const CACHE_VERSION = 'v2';
const CACHE_PREFIX = 'fixly-shell-';
const CACHE_NAME = CACHE_PREFIX + CACHE_VERSION;
/** The empty app shell (web/src/app/prerendered-pages.ts): it stands in for any page never opened
 * online. Not a page: /, /services, /book and /track are prerendered, each with its own markup. */
const SHELL_URL = '/index.html';
const PRECACHE_URLS = [SHELL_URL, '/manifest.webmanifest', '/favicon.svg', '/icons/icon-192.png', '/icons/icon-512.png'];

/** Whether a request is one of the site's own files this worker may keep (and answer offline). */
function isCacheable(request) {
  if (request.method !== 'GET') return false;
  let url;
  try {
    url = new URL(request.url);
  } catch {
    return false;
  }
  if (url.origin !== self.location.origin) return false;
  if (url.pathname === '/api' || url.pathname.startsWith('/api/') || url.pathname === '/ws' || url.pathname.startsWith('/ws/')) return false;
  // The worker itself is the browser's to update; the background video is large and fetched in ranges.
  if (url.pathname === '/sw.js' || /\.(mp4|webm)$/i.test(url.pathname)) return false;
  const headers = request.headers;
  if (headers && typeof headers.get === 'function') {
    if (headers.get('range')) return false;
    // The Vite dev client pings the server this way to learn it is back: a cached answer would lie.
    if ((headers.get('accept') || '').includes('text/x-vite-ping')) return false;
  }
  return true;
}

/** Content-hashed build output: a new build means a new name, so a kept copy is never stale. */
function isImmutableAsset(url) {
  return new URL(url).pathname.startsWith('/assets/');
}

/** Only complete, same-origin, successful answers are kept (not a 206, a redirect or an error page). */
function keepable(response) {
  return Boolean(response) && response.status === 200 && (response.type === 'basic' || response.type === 'default');
}

async function put(cache, key, response) {
  if (keepable(response)) await cache.put(key, response);
}

async function networkFirst(event) {
  const { request } = event;
  const cache = await caches.open(CACHE_NAME);
  try {
    const response = await fetch(request);
    if (keepable(response)) {
      const copies = [put(cache, request, response.clone())];
      // The shell is refreshed with every page load, so it names the latest deploy's scripts.
      if (request.mode === 'navigate') copies.push(fetch(SHELL_URL, { cache: 'no-cache' }).then((shell) => put(cache, SHELL_URL, shell)));
      event.waitUntil(Promise.all(copies).catch(() => undefined));
    }
    return response;
  } catch (error) {
    // ignoreVary: a kept page or module answers whatever headers the offline request carries.
    const kept =
      (await cache.match(request, { ignoreVary: true })) ||
      (request.mode === 'navigate' ? await cache.match(SHELL_URL, { ignoreVary: true }) : undefined);
    if (kept) return kept;
    throw error;
  }
}

async function cacheFirst(event) {
  const { request } = event;
  const cache = await caches.open(CACHE_NAME);
  const kept = await cache.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  event.waitUntil(put(cache, request, response.clone()).catch(() => undefined));
  return response;
}

const DEFAULT_TITLE = 'Fixly';

/** Only pages of this site: a payload cannot send a click elsewhere. */
function pageUrl(url) {
  try {
    const target = new URL(typeof url === 'string' && url ? url : '/', self.location.origin);
    return target.origin === self.location.origin ? target.href : new URL('/', self.location.origin).href;
  } catch {
    return new URL('/', self.location.origin).href;
  }
}

function readPayload(data) {
  if (!data) return {};
  try {
    const json = data.json();
    return json && typeof json === 'object' ? json : {};
  } catch {
    return { body: data.text() };
  }
}

self.addEventListener('install', (event) => {
  self.skipWaiting();
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE_NAME);
      // One by one: a file that cannot be fetched now must not stop the worker from installing.
      await Promise.all(
        PRECACHE_URLS.map(async (url) => {
          try {
            await put(cache, url, await fetch(url, { cache: 'no-cache' }));
          } catch {
            // Kept later, when a page loads it.
          }
        }),
      );
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      await Promise.all(names.filter((name) => name.startsWith(CACHE_PREFIX) && name !== CACHE_NAME).map((name) => caches.delete(name)));
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  if (!isCacheable(event.request)) return;
  event.respondWith(isImmutableAsset(event.request.url) ? cacheFirst(event) : networkFirst(event));
});

/* A page that loaded before this worker controlled it (the first visit) hands over the URLs it
 * loaded, so an app installed on that visit opens offline. The same rules apply; replies when done. */
self.addEventListener('message', (event) => {
  const data = event.data;
  if (!data || data.type !== 'cache-urls' || !Array.isArray(data.urls)) return;
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE_NAME);
      let kept = 0;
      const urls = [...new Set(data.urls.filter((url) => typeof url === 'string'))].slice(0, 1000);
      await Promise.all(
        urls.map(async (url) => {
          let request;
          try {
            request = new Request(url);
          } catch {
            return;
          }
          if (!isCacheable(request)) return;
          try {
            const response = await fetch(request);
            if (keepable(response)) {
              await cache.put(request, response);
              kept += 1;
            }
          } catch {
            // Offline already, or gone: nothing to keep.
          }
        }),
      );
      const port = event.ports && event.ports[0];
      if (port) port.postMessage({ type: 'cached', kept });
    })(),
  );
});

self.addEventListener('push', (event) => {
  const payload = readPayload(event.data);
  const title = typeof payload.title === 'string' && payload.title ? payload.title : DEFAULT_TITLE;
  const options = {
    body: typeof payload.body === 'string' ? payload.body : '',
    data: { url: pageUrl(payload.url) },
  };
  // The same tag replaces an older notification about the same thing instead of stacking.
  if (typeof payload.tag === 'string' && payload.tag) {
    options.tag = payload.tag;
    options.renotify = true;
  }
  event.waitUntil(self.registration.showNotification(title, options));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = pageUrl(event.notification.data && event.notification.data.url);
  event.waitUntil(
    (async () => {
      const tabs = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = tabs.find((tab) => tab.url === url);
      if (open) return open.focus();
      return self.clients.openWindow(url);
    })(),
  );
});

/* The browser replaced the subscription (its push service rotated or expired it): take a new one
 * with the same server key when the browser did not, and tell the server, naming the old endpoint
 * (a worker's token never reaches this worker), so pushes keep coming without enabling push again.
 * Without the old subscription there is nothing to prove it: the page offers push again instead. */
self.addEventListener('pushsubscriptionchange', (event) => {
  event.waitUntil(
    (async () => {
      const old = event.oldSubscription;
      if (!old) return;
      const fresh =
        event.newSubscription ||
        (await self.registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: old.options.applicationServerKey }));
      const json = fresh.toJSON();
      await fetch('/api/push/renew', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ oldEndpoint: old.endpoint, endpoint: json.endpoint, keys: json.keys, expirationTime: json.expirationTime ?? null }),
      });
    })(),
  );
});
