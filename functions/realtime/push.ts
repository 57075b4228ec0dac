import webpush from 'web-push';
import type { RealtimeRole } from '../../shared/realtime';
import { pushSubscriptionsRepo, type PushSubscriptionItem } from './data/push-subscriptions';
import { logger } from '../common/logger';
import { PushNotConfiguredError, vapidKeys } from './push-config';
import { isAllowedPushEndpoint } from './push-endpoint';
import type { PushPerson } from './push-caller';

/**
 * The one adapter for web push: `web-push` encrypts the payload for the
 * subscription (aes128gcm) and signs the VAPID header with the keys of the VAPID secret; the
 * request itself goes out with fetch, so the local runtime's loopback http stand-in works as well
 * as the browsers' https push services. Only those are ever sent to (functions/realtime/push-endpoint.ts,
 * checked again here before each send), and a redirect is not followed. A subscription the push
 * service answers 404 or 410 for has ended: it is deleted. Endpoints and keys are never logged.
 */

/** What the service worker (web/public/sw.js) shows: a notification that opens `url` on click. */
export interface PushPayload {
  title: string;
  body: string;
  url: string;
  tag: string;
}

export interface PushOptions {
  /** How long the push service keeps it for an offline browser (seconds). */
  ttlSeconds?: number;
  urgency?: 'very-low' | 'low' | 'normal' | 'high';
}

export interface PushOutcome {
  /** Accepted by the push service. */
  sent: number;
  /** Gone (404/410) and deleted. */
  removed: number;
  /** Refused for another reason, or unreachable. */
  failed: number;
}

const SEND_TIMEOUT_MS = 10_000;
const DEFAULT_TTL_SECONDS = 24 * 60 * 60;
/** Push services take about 4 KB of ciphertext; notifications stay well under that. */
const MAX_TEXT = 1000;

async function vapidDetails(): Promise<{ subject: string; publicKey: string; privateKey: string }> {
  const keys = await vapidKeys();
  if (!keys) throw new PushNotConfiguredError();
  return keys;
}

/** The JSON the service worker reads, trimmed to what a notification can show. */
export function pushBody(payload: PushPayload): string {
  const clip = (text: string) => (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text);
  return JSON.stringify({ title: clip(payload.title), body: clip(payload.body), url: payload.url, tag: payload.tag });
}

type Delivery = 'sent' | 'gone' | 'failed';

async function deliver(subscription: PushSubscriptionItem, body: string, options: PushOptions, vapid: Awaited<ReturnType<typeof vapidDetails>>): Promise<Delivery> {
  // A row stored before endpoints were checked, pointing anywhere else, can never be delivered to:
  // it is forgotten like one its push service reports gone, and that browser is asked to enable
  // push again, which now says what it needs.
  if (!isAllowedPushEndpoint(subscription.endpoint)) {
    logger.warn('Push endpoint refused: not a push service', { role: subscription.role });
    return 'gone';
  }
  const details = webpush.generateRequestDetails(
    { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dhKey, auth: subscription.authKey } },
    body,
    { vapidDetails: vapid, TTL: options.ttlSeconds ?? DEFAULT_TTL_SECONDS, urgency: options.urgency ?? 'normal', contentEncoding: 'aes128gcm' },
  );
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(details.headers)) {
    // fetch sets the length from the body itself.
    if (name.toLowerCase() !== 'content-length' && value !== undefined) headers[name] = String(value);
  }
  const response = await fetch(details.endpoint, {
    method: 'POST',
    headers,
    body: new Uint8Array(details.body),
    // A push service answers, it does not send us elsewhere: a redirect is a failure, never followed.
    redirect: 'manual',
    signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
  });
  await response.body?.cancel();
  if (response.ok) return 'sent';
  if (response.status === 404 || response.status === 410) return 'gone';
  logger.warn('Push refused', { status: response.status, role: subscription.role });
  return 'failed';
}

/**
 * Sends one notification to every browser the person enabled push on, all at once. Best effort
 * per subscription: one failing does not stop the others. Throws PushNotConfiguredError without keys.
 */
export async function pushTo(role: RealtimeRole, userId: string, payload: PushPayload, options: PushOptions = {}): Promise<PushOutcome> {
  const person: PushPerson = { role, userId };
  const vapid = await vapidDetails();
  const subscriptions = await pushSubscriptionsRepo.listFor(person);
  const body = pushBody(payload);
  const outcome: PushOutcome = { sent: 0, removed: 0, failed: 0 };
  const now = new Date().toISOString();
  const results = await Promise.allSettled(
    subscriptions.map(async (subscription) => {
      const delivery = await deliver(subscription, body, options, vapid);
      if (delivery === 'sent') await pushSubscriptionsRepo.touch(subscription, now);
      if (delivery === 'gone') await pushSubscriptionsRepo.forget(person, subscription.endpointHash);
      return delivery;
    }),
  );
  for (const result of results) {
    if (result.status === 'rejected') {
      outcome.failed++;
      logger.warn('Push failed', { role: person.role, errorName: (result.reason as Error)?.name });
    } else if (result.value === 'sent') outcome.sent++;
    else if (result.value === 'gone') outcome.removed++;
    else outcome.failed++;
  }
  if (subscriptions.length) logger.info('Push sent', { role: person.role, tag: payload.tag, ...outcome });
  return outcome;
}
