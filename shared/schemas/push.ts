import * as z from 'zod/mini';
import { strictBody } from '../validation';

/** Web push subscriptions: the browser's PushSubscription, as JSON. */
const endpoint = z.string({ error: 'endpoint must be the push service URL' }).check(
  z.maxLength(2048, 'endpoint is too long'),
  z.refine((v) => {
    try {
      const url = new URL(v);
      // Push services are https; the local runtime's stand-in push service is plain http on loopback.
      // Which hosts a push may go to is the server's rule (functions/lib/push-endpoint.ts): it
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

export const pushSubscribeSchema = strictBody({
  endpoint,
  keys: z.strictObject(
    {
      p256dh: z.string({ error: 'Missing subscription keys' }).check(z.minLength(1, 'Missing subscription keys'), z.maxLength(200, 'p256dh is too long')),
      auth: z.string({ error: 'Missing subscription keys' }).check(z.minLength(1, 'Missing subscription keys'), z.maxLength(100, 'auth is too long')),
    },
    { error: 'Missing subscription keys' },
  ),
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
  keys: pushSubscribeSchema.shape.keys,
  expirationTime,
});
export type PushRenewInput = z.infer<typeof pushRenewSchema>;
