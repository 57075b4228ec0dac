import { env } from './env';
import { HttpError } from './errors';

/**
 * Whether this server can do web push, without loading web-push itself: the public key route and
 * the subscription routes only need to know, and stay light at cold start.
 */
export function vapidPublicKey(): string | undefined {
  return env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY ? env.VAPID_PUBLIC_KEY : undefined;
}

/** 503: the server has no VAPID keys, so it can neither hand out the public key nor send. */
export class PushNotConfiguredError extends HttpError {
  override readonly name = 'PushNotConfiguredError';
  readonly status = 503;
  constructor() {
    super('Push notifications are not set up on this server (no VAPID keys). Ask the site owner to configure them.');
  }
}
