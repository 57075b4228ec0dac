/* The service worker at /sw.js (customer spec section 7): shows each web push as a notification
 * and, on a click, focuses a tab already showing its page or opens one. The push payload is the
 * JSON functions/lib/push.ts sends: { title, body, url, tag }. When the browser replaces the
 * subscription, it hands the new one to the server. Registered by web/src/lib/push.ts only when
 * push is enabled. It caches nothing: the site works exactly as without it. */

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

self.addEventListener('install', () => {
  self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
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
