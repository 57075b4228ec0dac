import { env } from '../common/env';
import { HttpError } from '../common/errors';
import { hasSecret, readSecretFields } from '../common/secrets';

/**
 * The VAPID keys, read from the VAPID secret (functions/common/secrets.ts) by the functions that hand
 * out the public key or send push, the only ones told its id; without web-push itself, so the
 * public key route stays light at cold start. Undefined: this server has no push (no secret id).
 * A secret that cannot be read is a 503 with Retry-After (SecretUnavailableError).
 */
export async function vapidKeys(): Promise<{ publicKey: string; privateKey: string; subject: string } | undefined> {
  if (!hasSecret('vapid') || !env.VAPID_SUBJECT) return undefined;
  const { publicKey, privateKey } = await readSecretFields('vapid', ['publicKey', 'privateKey']);
  return { publicKey, privateKey, subject: env.VAPID_SUBJECT };
}

/** The public key browsers subscribe with, or undefined when this server has no push. */
export async function vapidPublicKey(): Promise<string | undefined> {
  return (await vapidKeys())?.publicKey;
}

/** 503: the server has no VAPID keys, so it can neither hand out the public key nor send. */
export class PushNotConfiguredError extends HttpError {
  override readonly name = 'PushNotConfiguredError';
  readonly status = 503;
  constructor() {
    super('Push notifications are not set up on this server (no VAPID keys). Ask the site owner to configure them.');
  }
}
