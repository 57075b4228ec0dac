import { logger } from './logger';
import { ServiceUnavailableError } from './errors';

/**
 * Failures that mean "not now" rather than "never": AWS throttling and 5xx answers, timeouts,
 * connections refused or dropped, Stripe's connection and rate-limit errors. The SDKs have
 * already retried these with backoff by the time they reach us, so the caller is asked to come
 * back (503 with Retry-After) instead of being told we broke (500).
 */
const TRANSIENT_NAMES = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
  'ServiceUnavailableException',
  'TransactionInProgressException',
  'SlowDown',
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
]);
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNABORTED', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_SOCKET']);
const STRIPE_TRANSIENT_TYPES = new Set(['StripeConnectionError', 'StripeRateLimitError']);

interface ErrorShape {
  name?: string;
  code?: string;
  type?: string;
  statusCode?: number;
  cause?: unknown;
  $retryable?: unknown;
  $metadata?: { httpStatusCode?: number };
}

export function isTransient(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 3) return false;
  const e = error as ErrorShape;
  if (e.$retryable) return true;
  if (e.name && TRANSIENT_NAMES.has(e.name)) return true;
  if (e.code && NETWORK_CODES.has(e.code)) return true;
  if (e.type && STRIPE_TRANSIENT_TYPES.has(e.type)) return true;
  if (e.type === 'StripeAPIError' && (e.statusCode ?? 0) >= 500) return true;
  if ((e.$metadata?.httpStatusCode ?? 0) >= 500) return true;
  return isTransient(e.cause, depth + 1);
}

/** What could not be done, when the caller did not say: Stripe's errors name Stripe, so the person knows it is the payments. */
function defaultWhat(error: unknown): string {
  const type = (error as ErrorShape | undefined)?.type;
  if (typeof type === 'string' && type.startsWith('Stripe')) return 'Our payment provider, Stripe, did not answer in time.';
  return 'We are very busy right now.';
}

/**
 * The answer for a transient failure, logged with what identifies it (never its message, which
 * can quote the request). `what` says, in words a person can act on, what could not be done.
 */
export function unavailable(error: unknown, what = defaultWhat(error)): ServiceUnavailableError {
  const e = error as ErrorShape;
  logger.warn('A service we depend on did not answer', { errorName: e?.name, errorCode: e?.code ?? e?.type });
  return new ServiceUnavailableError(`${what} Please try again in a few seconds.`);
}

/** Runs `work`; a transient failure in it becomes a 503 saying `what` could not be done. */
export async function orUnavailable<T>(what: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isTransient(error)) throw unavailable(error, what);
    throw error;
  }
}
