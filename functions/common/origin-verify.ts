import { ORIGIN_VERIFY_HEADER } from '../../shared/edge';
import { sameSecret } from './auth/tokens';
import { readSecret } from './secrets';

/**
 * Whether a request came through our CloudFront distribution. The API's execute-api addresses are
 * public, and a call made to them directly skips everything the edge does: the WAF's rate rules,
 * the viewer address the limits count (functions/common/client-address.ts) and the visitor's host name
 * the same-origin check compares. CloudFront adds the origin secret (shared/edge.ts) to every
 * request it sends to the API origins; nobody else knows it.
 *
 * The secret `{ value }` may also hold `previous` while it is being changed (README runbook): the
 * distribution sends the old value until its update has reached every edge, so both are accepted
 * until the operator removes `previous`.
 */
export const NOT_THROUGH_SITE_MESSAGE = 'This address answers only requests made through the site. Open the site and send it from there.';

/**
 * A request without the right value makes the function read the secret again, once (it may have
 * changed since this container cached it), but not more often than this: a flood of direct calls
 * with made-up values must not become a flood of Secrets Manager reads.
 */
export const FRESH_READ_INTERVAL_MS = 30_000;
let lastFreshRead = Number.NEGATIVE_INFINITY;

/** The clock, replaceable by tests (nothing sleeps). */
export const originClock = { now: (): number => Date.now() };

/** Every accepted value is compared, in constant time, so the answer's timing says nothing about which. */
function accepts(secret: Record<string, string>, presented: string): boolean {
  let match = false;
  for (const value of [secret.value, secret.previous]) {
    if (value) match = sameSecret(presented, value) || match;
  }
  return match;
}

/** The header's value whatever its case (the WebSocket API keeps the sender's case; the HTTP API lower-cases). */
function presentedValue(headers: Record<string, string | undefined> | null | undefined): string | undefined {
  if (!headers) return undefined;
  const direct = headers[ORIGIN_VERIFY_HEADER];
  if (direct !== undefined) return direct;
  const name = Object.keys(headers).find((key) => key.toLowerCase() === ORIGIN_VERIFY_HEADER);
  return name === undefined ? undefined : headers[name];
}

export async function cameThroughDistribution(headers: Record<string, string | undefined> | null | undefined): Promise<boolean> {
  const presented = presentedValue(headers);
  // No header at all: nothing to compare, and no reason to read anything.
  if (!presented) return false;
  if (accepts(await readSecret('origin'), presented)) return true;
  const now = originClock.now();
  if (now - lastFreshRead < FRESH_READ_INTERVAL_MS) return false;
  lastFreshRead = now;
  return accepts(await readSecret('origin', { fresh: true }), presented);
}
