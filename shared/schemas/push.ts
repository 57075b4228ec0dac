import * as z from 'zod/mini';
import { strictBody } from '../validation';

/** Web push subscriptions: the browser's PushSubscription, as JSON. */
const endpoint = z.string({ error: 'endpoint must be the push service URL' }).check(
  z.maxLength(2048, 'endpoint is too long'),
  z.refine((v) => {
    try {
      const url = new URL(v);
      // Push services are https; the local runtime's stand-in push service is plain http on loopback.
      // Which hosts a push may go to is the server's rule (functions/realtime/push-endpoint.ts): it
      // depends on where the function runs, which this shared shape cannot know.
      return url.protocol === 'https:' || (url.protocol === 'http:' && ['127.0.0.1', 'localhost'].includes(url.hostname));
    } catch {
      return false;
    }
  }, 'endpoint must be the push service URL'),
);

/** When the browser says the subscription lapses: epoch milliseconds, at most the last time a Date holds. */
const expirationTime = z.optional(
  z.nullable(
    z.number({ error: 'expirationTime must be a time in milliseconds' }).check(
      z.gte(0, 'expirationTime must be a time in milliseconds'),
      z.lte(8.64e15, 'expirationTime must be a time in milliseconds'),
    ),
  ),
);

/** The bytes a base64url text (padding optional) stands for, or undefined when it is not base64url. */
export function base64urlBytes(value: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*={0,2}$/.test(value) || value.replace(/=+$/, '').length % 4 === 1) return undefined;
  const base64 = value.replace(/=+$/, '').replace(/-/g, '+').replace(/_/g, '/');
  try {
    return Uint8Array.from(atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4)), (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}

export const P256DH_MESSAGE = "This browser's push key is not one a message can be encrypted to. Turn push off and on again in this browser.";
export const AUTH_MESSAGE = "This browser's push secret is not 16 bytes. Turn push off and on again in this browser.";

/**
 * The keys every push is encrypted with (RFC 8291): without usable ones the subscription would be
 * kept and every push to it fail. p256dh is an uncompressed P-256 point (65 bytes, 0x04 first; the
 * functions also check that it lies on the curve, with node:crypto), auth a 16-byte secret.
 */
const pushKeys = z.strictObject(
  {
    p256dh: z.string({ error: 'Missing subscription keys' }).check(
      z.minLength(1, 'Missing subscription keys'),
      z.maxLength(200, 'p256dh is too long'),
      z.refine((v) => {
        const bytes = base64urlBytes(v);
        return bytes?.length === 65 && bytes[0] === 0x04;
      }, P256DH_MESSAGE),
    ),
    auth: z.string({ error: 'Missing subscription keys' }).check(
      z.minLength(1, 'Missing subscription keys'),
      z.maxLength(100, 'auth is too long'),
      z.refine((v) => base64urlBytes(v)?.length === 16, AUTH_MESSAGE),
    ),
  },
  { error: 'Missing subscription keys' },
);

export const pushSubscribeSchema = strictBody({
  endpoint,
  keys: pushKeys,
  userAgent: z.optional(z.string({ error: 'userAgent must be text' }).check(z.maxLength(500, 'userAgent is too long'))),
  expirationTime,
});
export type PushSubscribeInput = z.infer<typeof pushSubscribeSchema>;

export const pushEndpointSchema = strictBody({ endpoint });

/**
 * POST /api/push/renew, from the service worker when the browser replaced a subscription
 * (pushsubscriptionchange): the old endpoint, a capability only the browser and the server know,
 * stands for the person, since a worker's token never reaches the service worker.
 */
export const pushRenewSchema = strictBody({
  oldEndpoint: endpoint,
  endpoint,
  keys: pushKeys,
  expirationTime,
});
export type PushRenewInput = z.infer<typeof pushRenewSchema>;
