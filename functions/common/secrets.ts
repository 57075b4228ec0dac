import { GetSecretValueCommand } from '@aws-sdk/client-secrets-manager';
import { secretsManager } from './clients';
import { env } from './env';
import { ServiceUnavailableError } from './errors';
import { logger } from './logger';
import { isTransient } from './transient';
import { secretIdVariables, type SecretName } from '../../shared/secrets';

/**
 * Secrets are read from AWS Secrets Manager at run time (locally from infra/local/secrets-manager.ts,
 * through the same SDK client), never from the environment: a function's configuration is readable
 * by far more people than its secrets. Each function is told only the id of the secrets it may read
 * (STRIPE_SECRET_ID, ...), and its role may read those alone.
 *
 * stripe `{ secretKey, webhookSecret, connectWebhookSecret }`, vapid `{ publicKey, privateKey }`,
 * origin `{ value }`, setup `{ code }`.
 */
export type { SecretName };

/**
 * How long a container keeps a secret it read. Short enough that a value put in the secret is used
 * everywhere within minutes of a rotation, without a deploy; long enough that a busy container reads
 * Secrets Manager a few times an hour rather than at every request (each read costs time and money).
 * A webhook whose signature fails reads again at once (`fresh`), so a rotated signing secret is
 * picked up by the first event signed with it.
 */
export const SECRET_CACHE_SECONDS = 300;

/** After a failed read, the caller is asked to come back after this long (a fix takes a person). */
const MISCONFIGURED_RETRY_SECONDS = 60;

const idVariables = secretIdVariables satisfies Record<SecretName, keyof typeof env>;

/** What cannot be done without each secret, in words for the person who asked. */
const purposes: Record<SecretName, string> = {
  stripe: 'Payments are unavailable right now.',
  vapid: 'Push notifications are unavailable right now.',
  origin: 'This service is unavailable right now.',
  setup: 'Owner setup is unavailable right now.',
};

/** Whether this function was given the secret at all (its id variable is set). */
export function hasSecret(name: SecretName): boolean {
  return Boolean(env[idVariables[name]]);
}

/**
 * A secret could not be read: 503 with Retry-After, as for any service we depend on. A transient
 * failure (throttled, timed out, unreachable) asks for a few seconds; a missing secret, a refused
 * read or a value that is not a JSON object needs the operator, so it asks for a minute and the log
 * says which (never the value).
 */
export class SecretUnavailableError extends ServiceUnavailableError {
  constructor(
    readonly secret: SecretName,
    readonly transient: boolean,
  ) {
    super(
      `${purposes[secret]} Please try again in ${transient ? 'a few seconds' : 'a minute'}.`,
      transient ? 5 : MISCONFIGURED_RETRY_SECONDS,
    );
  }
}

interface Cached {
  value: Record<string, string>;
  readAt: number;
}

const cache = new Map<SecretName, Cached>();
/** Reads under way, so concurrent callers in one process (the local runtime) share one call. */
const reading = new Map<SecretName, Promise<Record<string, string>>>();

/**
 * The secret's JSON fields (only its string fields). Cached in the container for
 * SECRET_CACHE_SECONDS; `fresh: true` skips the cache (e.g. after a signature fails, in case the
 * secret was rotated) and refreshes it. Throws SecretUnavailableError when it cannot be read.
 */
export async function readSecret(name: SecretName, options: { fresh?: boolean } = {}): Promise<Record<string, string>> {
  const cached = cache.get(name);
  if (!options.fresh && cached && Date.now() - cached.readAt < SECRET_CACHE_SECONDS * 1000) return cached.value;
  const pending = reading.get(name);
  if (pending) return pending;
  const read = fetchSecret(name).finally(() => reading.delete(name));
  reading.set(name, read);
  return read;
}

async function fetchSecret(name: SecretName): Promise<Record<string, string>> {
  const variable = idVariables[name];
  const secretId = env[variable];
  if (!secretId) {
    logger.error('A secret this function needs has no id in its environment', { secret: name, variable });
    throw new SecretUnavailableError(name, false);
  }
  let text: string | undefined;
  try {
    const answer = await secretsManager.send(new GetSecretValueCommand({ SecretId: secretId }));
    text = answer.SecretString;
  } catch (error) {
    const transient = isTransient(error);
    const e = error as { name?: string; code?: string };
    // A refused or missing secret is the operator's to fix: logged as an error, so it alarms.
    (transient ? logger.warn : logger.error)('Could not read a secret', { secret: name, secretId, errorName: e?.name, errorCode: e?.code });
    throw new SecretUnavailableError(name, transient);
  }
  const value = fieldsOf(text);
  if (!value) {
    logger.error('A secret is not a JSON object of strings', { secret: name, secretId });
    throw new SecretUnavailableError(name, false);
  }
  cache.set(name, { value, readAt: Date.now() });
  return value;
}

function fieldsOf(text: string | undefined): Record<string, string> | undefined {
  if (!text) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries(parsed)) if (typeof value === 'string') fields[key] = value;
  return fields;
}

/**
 * The named fields of a secret, each a non-empty string, or a SecretUnavailableError naming what is
 * missing in the log (a secret created without a field the code needs is the operator's to fix).
 */
export async function readSecretFields<F extends string>(name: SecretName, fields: readonly F[], options: { fresh?: boolean } = {}): Promise<Record<F, string>> {
  const value = await readSecret(name, options);
  const missing = fields.filter((field) => !value[field]);
  if (missing.length) {
    logger.error('A secret lacks fields this function needs', { secret: name, missing: missing.join(',') });
    throw new SecretUnavailableError(name, false);
  }
  return value as Record<F, string>;
}

/** Forgets every cached secret (tests that rotate a secret, then check it is read again). */
export function forgetSecrets(): void {
  cache.clear();
}
