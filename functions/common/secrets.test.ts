import { CreateSecretCommand, PutSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { startFaultProxy } from '../../infra/testing/fault-proxy';
import { newId } from './ids';

/**
 * readSecret against the test setup's local Secrets Manager (infra/local/secrets-manager.ts), through
 * the real SDK client. Each case that changes a secret makes one of its own and loads the module
 * afresh (a new container, with an empty cache), so no other test's secret moves under it.
 */
const admin = new SecretsManagerClient({ region: 'us-east-1', endpoint: process.env.SECRETS_MANAGER_ENDPOINT });
const proxy = await startFaultProxy(process.env.SECRETS_MANAGER_ENDPOINT!);

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  proxy.set(undefined);
});
afterAll(async () => {
  admin.destroy();
  await proxy.close();
});

async function ownSecret(value: unknown): Promise<string> {
  const id = `marketplace/test/secret-${newId()}`;
  await admin.send(new CreateSecretCommand({ Name: id, SecretString: typeof value === 'string' ? value : JSON.stringify(value) }));
  return id;
}

const rotate = (id: string, value: unknown) => admin.send(new PutSecretValueCommand({ SecretId: id, SecretString: JSON.stringify(value) }));

/** functions/common/secrets.ts as a fresh container told these variables loads it. */
async function freshSecrets(variables: Record<string, string | undefined>) {
  vi.resetModules();
  for (const [name, value] of Object.entries(variables)) vi.stubEnv(name, value);
  return import('./secrets');
}

/** Counts the reads that reach Secrets Manager (the proxy forwards every one). */
function countReads(): { readonly count: number } {
  const seen = { count: 0 };
  proxy.set({ kind: 'hang' }, () => {
    seen.count += 1;
    return false;
  });
  return seen;
}

describe('readSecret', () => {
  it("answers the secret's JSON fields, read through Secrets Manager, never from the environment", async () => {
    // Prepare
    const id = await ownSecret({ secretKey: 'sk_test_own', webhookSecret: 'whsec_own', connectWebhookSecret: 'whsec_connect_own', extra: 7 });
    const { readSecret } = await freshSecrets({ STRIPE_SECRET_ID: id });

    // Act
    const value = await readSecret('stripe');

    // Assess: only the string fields
    expect(value).toEqual({ secretKey: 'sk_test_own', webhookSecret: 'whsec_own', connectWebhookSecret: 'whsec_connect_own' });
    expect(Object.values(process.env)).not.toContain('sk_test_own');
  });

  it('never takes a key from the environment, as functions were once given them', async () => {
    // Prepare: the variables a function of an older deploy carried, and no secret id.
    const { readSecret } = await freshSecrets({ STRIPE_SECRET_ID: undefined, STRIPE_SECRET_KEY: 'sk_test_from_env', STRIPE_WEBHOOK_SECRET: 'whsec_from_env' });

    // Act
    const attempt = readSecret('stripe');

    // Assess
    await expect(attempt).rejects.toMatchObject({ status: 503 });
  });

  it('keeps a secret for a few minutes, reads it again after, and reads at once when asked for a fresh one', async () => {
    // Prepare
    const id = await ownSecret({ code: 'first' });
    const { readSecret, SECRET_CACHE_SECONDS } = await freshSecrets({ SETUP_SECRET_ID: id, SECRETS_MANAGER_ENDPOINT: proxy.url });
    await readSecret('setup');
    await rotate(id, { code: 'second' });
    const reads = countReads();

    // Act
    const cached = await readSecret('setup');
    const fresh = await readSecret('setup', { fresh: true });
    await rotate(id, { code: 'third' });
    const stillCached = await readSecret('setup');
    const now = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(now + SECRET_CACHE_SECONDS * 1000 + 1);
    const expired = await readSecret('setup');

    // Assess
    expect(cached).toEqual({ code: 'first' });
    expect(fresh).toEqual({ code: 'second' });
    expect(stillCached).toEqual({ code: 'second' });
    expect(expired).toEqual({ code: 'third' });
    expect(reads.count).toBe(2);
    expect(SECRET_CACHE_SECONDS).toBeGreaterThanOrEqual(60);
    expect(SECRET_CACHE_SECONDS).toBeLessThanOrEqual(600);
  });

  it('makes one read for callers asking at the same moment', async () => {
    // Prepare
    const id = await ownSecret({ value: 'origin-value' });
    const { readSecret } = await freshSecrets({ ORIGIN_SECRET_ID: id, SECRETS_MANAGER_ENDPOINT: proxy.url });
    const reads = countReads();

    // Act
    const values = await Promise.all([readSecret('origin'), readSecret('origin'), readSecret('origin')]);

    // Assess
    expect(values).toEqual([{ value: 'origin-value' }, { value: 'origin-value' }, { value: 'origin-value' }]);
    expect(reads.count).toBe(1);
  });

  it('answers 503 with a minute to wait when the secret is missing, unnamed, not JSON or lacks a field the code needs', async () => {
    // Prepare
    const notJson = await ownSecret('sk_test_just_a_string');
    const withoutKey = await ownSecret({ webhookSecret: 'whsec_only' });
    const missing = await freshSecrets({ STRIPE_SECRET_ID: 'marketplace/test/no-such-secret' });
    const unnamed = await freshSecrets({ STRIPE_SECRET_ID: undefined });
    const garbled = await freshSecrets({ STRIPE_SECRET_ID: notJson });
    const partial = await freshSecrets({ STRIPE_SECRET_ID: withoutKey });

    // Act
    const failures = await Promise.all([
      missing.readSecret('stripe').catch((e: unknown) => e),
      unnamed.readSecret('stripe').catch((e: unknown) => e),
      garbled.readSecret('stripe').catch((e: unknown) => e),
      partial.readSecretFields('stripe', ['secretKey']).catch((e: unknown) => e),
    ]);

    // Assess
    for (const failure of failures) {
      expect(failure).toMatchObject({
        name: 'ServiceUnavailableError',
        status: 503,
        retryAfterSeconds: 60,
        message: 'Payments are unavailable right now. Please try again in a minute.',
      });
    }
  });

  it('answers 503 with a few seconds to wait when Secrets Manager cannot be reached, and reads again next time', async () => {
    // Prepare
    const id = await ownSecret({ publicKey: 'pub', privateKey: 'priv' });
    const { readSecret } = await freshSecrets({ VAPID_SECRET_ID: id, SECRETS_MANAGER_ENDPOINT: proxy.url });
    proxy.set({ kind: 'refuse' });

    // Act
    const failure = await readSecret('vapid').catch((e: unknown) => e);
    proxy.set(undefined);
    const healed = await readSecret('vapid');

    // Assess
    expect(failure).toMatchObject({ status: 503, retryAfterSeconds: 5, message: 'Push notifications are unavailable right now. Please try again in a few seconds.' });
    expect(healed).toEqual({ publicKey: 'pub', privateKey: 'priv' });
  });

  it('gives up on a Secrets Manager that does not answer well within the function timeout', async () => {
    // Prepare
    const { FUNCTION_TIMEOUT_SECONDS } = await import('../../infra/function-defaults');
    const id = await ownSecret({ code: 'slow' });
    const { readSecret } = await freshSecrets({ SETUP_SECRET_ID: id, SECRETS_MANAGER_ENDPOINT: proxy.url });
    proxy.set({ kind: 'hang' });
    const started = Date.now();

    // Act
    const failure = await readSecret('setup').catch((e: unknown) => e);

    // Assess
    expect(failure).toMatchObject({ status: 503, retryAfterSeconds: 5 });
    expect(Date.now() - started).toBeLessThan((FUNCTION_TIMEOUT_SECONDS * 1000) / 3);
  });
});
