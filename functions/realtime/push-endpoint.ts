import { createPublicKey } from 'node:crypto';
import { P256DH_MESSAGE } from '../../shared/schemas/push';
import { env } from '../common/env';
import { ValidationError } from '../common/errors';

/**
 * Where a push may be sent. A subscription's endpoint is a URL the browser hands us, and sending a
 * push is a POST to it, so an endpoint we did not check would let anyone make our functions call
 * any address (the VPC, the metadata service, loopback). A browser cannot choose its push service:
 * `PushManager.subscribe()` always answers with its vendor's, so the vendors' hosts are the whole
 * list (as the web-push library's maintainers and the browser vendors document them):
 *
 * - fcm.googleapis.com: Firebase Cloud Messaging, for Chrome and the browsers built on Chromium
 *   (Brave, Opera, Samsung Internet, Vivaldi); GCM's android.googleapis.com is long shut down;
 * - updates.push.services.mozilla.com: Mozilla's autopush, for Firefox;
 * - web.push.apple.com, and any *.push.apple.com Apple names as its push hosts: Safari;
 * - *.notify.windows.com: Windows Push Notification Services, for Edge.
 *
 * Always https on the default port, with no credentials in the URL. The local runtime alone also
 * takes plain http on loopback (any port): its stand-in push service in tests, since a laptop has
 * no push service of its own. Checked when a subscription is stored and again before each send.
 */
const PUSH_SERVICE_HOSTS: readonly string[] = ['fcm.googleapis.com', 'updates.push.services.mozilla.com', 'web.push.apple.com'];
const PUSH_SERVICE_DOMAINS: readonly string[] = ['.push.apple.com', '.notify.windows.com'];
const LOOPBACK_HOSTS: readonly string[] = ['127.0.0.1', 'localhost', '[::1]'];

const REFUSED = "This browser's push service is not one we send to. Enable push in Chrome, Edge, Firefox or Safari.";

function isPushServiceHost(hostname: string): boolean {
  return PUSH_SERVICE_HOSTS.includes(hostname) || PUSH_SERVICE_DOMAINS.some((domain) => hostname.endsWith(domain));
}

/** Whether a push may be sent to this endpoint: a browser vendor's push service (or, locally, loopback). */
export function isAllowedPushEndpoint(endpoint: string, localRuntime = env.LOCAL_RUNTIME): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  if (url.protocol === 'https:' && url.port === '' && isPushServiceHost(url.hostname)) return true;
  return localRuntime && url.protocol === 'http:' && LOOPBACK_HOSTS.includes(url.hostname);
}

/** 400 naming the field, for an endpoint no push may go to. */
export function assertPushServiceEndpoint(endpoint: string, field = 'endpoint'): void {
  if (!isAllowedPushEndpoint(endpoint)) throw new ValidationError(REFUSED, { [field]: REFUSED });
}

/**
 * 400 on p256dh, for a key of the right shape (the schema checked that) that is no point of P-256:
 * no push could ever be encrypted to it, so the subscription would be kept and never delivered.
 */
export function assertPushKeys(keys: { p256dh: string }): void {
  const point = Buffer.from(keys.p256dh, 'base64url');
  try {
    createPublicKey({ format: 'jwk', key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') } });
  } catch {
    throw new ValidationError(P256DH_MESSAGE, { 'keys.p256dh': P256DH_MESSAGE });
  }
}
