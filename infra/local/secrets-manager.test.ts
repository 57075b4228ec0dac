import {
  CreateSecretCommand,
  GetSecretValueCommand,
  PutSecretValueCommand,
  ResourceExistsException,
  ResourceNotFoundException,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureLocalSecret, localSecretId, localSecretsEnv, seedLocalSecret, startLocalSecretsManager, type LocalSecretsManager } from './secrets-manager';

const dir = mkdtempSync(path.join(tmpdir(), 'local-secrets-'));
const running: LocalSecretsManager[] = [];
const clients: SecretsManagerClient[] = [];

async function start(name: string) {
  const started = await startLocalSecretsManager(path.join(dir, name));
  running.push(started);
  return started;
}

/** The SDK client as functions/common/clients.ts makes it, pointed at the local endpoint. */
function sdk(endpoint: string): SecretsManagerClient {
  const client = new SecretsManagerClient({ region: 'us-east-1', endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, maxAttempts: 1 });
  clients.push(client);
  return client;
}

afterAll(async () => {
  clients.forEach((c) => c.destroy());
  await Promise.all(running.map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

describe('local Secrets Manager', () => {
  it('creates, reads and rotates a secret through the real SDK, each version readable by its id', async () => {
    // Prepare
    const local = await start('sdk');
    const client = sdk(local.endpoint);

    // Act
    const created = await client.send(new CreateSecretCommand({ Name: 'marketplace/local/origin', SecretString: '{"value":"one"}' }));
    const first = await client.send(new GetSecretValueCommand({ SecretId: 'marketplace/local/origin' }));
    const rotated = await client.send(new PutSecretValueCommand({ SecretId: created.ARN, SecretString: '{"value":"two"}' }));
    const current = await client.send(new GetSecretValueCommand({ SecretId: created.ARN }));
    const previous = await client.send(new GetSecretValueCommand({ SecretId: 'marketplace/local/origin', VersionId: first.VersionId }));

    // Assess
    expect(created.ARN).toMatch(/^arn:aws:secretsmanager:us-east-1:000000000000:secret:marketplace\/local\/origin-[A-Za-z0-9]{6}$/);
    expect(first).toMatchObject({ Name: 'marketplace/local/origin', ARN: created.ARN, SecretString: '{"value":"one"}', VersionStages: ['AWSCURRENT'] });
    expect(first.CreatedDate).toBeInstanceOf(Date);
    expect(rotated.VersionId).not.toBe(first.VersionId);
    expect(current).toMatchObject({ SecretString: '{"value":"two"}', VersionId: rotated.VersionId, VersionStages: ['AWSCURRENT'] });
    expect(previous).toMatchObject({ SecretString: '{"value":"one"}', VersionStages: [] });
    expect(local.get('marketplace/local/origin')).toEqual({ value: 'two' });
  });

  it("answers AWS's errors: a missing secret, a name taken, an operation it does not serve", async () => {
    // Prepare
    const local = await start('errors');
    const client = sdk(local.endpoint);
    await client.send(new CreateSecretCommand({ Name: 'taken', SecretString: '{}' }));

    // Act
    const missing = await client.send(new GetSecretValueCommand({ SecretId: 'nowhere' })).catch((e: unknown) => e);
    const taken = await client.send(new CreateSecretCommand({ Name: 'taken', SecretString: '{"other":"value"}' })).catch((e: unknown) => e);
    const retried = await client.send(new CreateSecretCommand({ Name: 'again', SecretString: '{}', ClientRequestToken: 'token-00000000000000000000000000000001' }));
    const retriedAgain = await client.send(new CreateSecretCommand({ Name: 'again', SecretString: '{}', ClientRequestToken: 'token-00000000000000000000000000000001' }));
    const unknown = await fetch(local.endpoint, { method: 'POST', headers: { 'x-amz-target': 'secretsmanager.DeleteSecret', 'content-type': 'application/x-amz-json-1.1' }, body: '{}' });

    // Assess
    expect(missing).toBeInstanceOf(ResourceNotFoundException);
    expect(taken).toBeInstanceOf(ResourceExistsException);
    expect(retriedAgain.VersionId).toBe(retried.VersionId);
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ __type: 'UnknownOperationException' });
  });

  it('keeps its secrets across a restart in a file only its owner may read, except those put to be kept in memory', async () => {
    // Prepare
    const first = await start('restart');
    seedLocalSecret(first, 'vapid', { publicKey: 'pub', privateKey: 'priv' });
    seedLocalSecret(first, 'stripe', { secretKey: 'sk_test_a_real_developer_key' }, { keep: false });
    await first.close();

    // Act
    const second = await start('restart');
    const file = path.join(dir, 'restart', 'secrets.json');

    // Assess
    expect(second.get(localSecretId('vapid'))).toEqual({ publicKey: 'pub', privateKey: 'priv' });
    expect(second.get(localSecretId('stripe'))).toBeUndefined();
    expect(readFileSync(file, 'utf8')).not.toContain('sk_test_a_real_developer_key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('seeds a secret without making a new version when its value is unchanged, and keeps a made-up one across starts', async () => {
    // Prepare
    const local = await start('seed');
    const client = sdk(local.endpoint);
    seedLocalSecret(local, 'stripe', { secretKey: 'sk_test_local_1' });
    const before = await client.send(new GetSecretValueCommand({ SecretId: localSecretId('stripe') }));
    let made = 0;
    const makeCode = () => ({ code: `code-${++made}` });

    // Act
    seedLocalSecret(local, 'stripe', { secretKey: 'sk_test_local_1' });
    const after = await client.send(new GetSecretValueCommand({ SecretId: localSecretId('stripe') }));
    const code = ensureLocalSecret(local, 'setup', makeCode);
    const codeAgain = ensureLocalSecret(local, 'setup', makeCode);

    // Assess
    expect(after.VersionId).toBe(before.VersionId);
    expect(code).toEqual({ code: 'code-1' });
    expect(codeAgain).toEqual({ code: 'code-1' });
    expect(localSecretsEnv(local)).toEqual({
      SECRETS_MANAGER_ENDPOINT: local.endpoint,
      STRIPE_SECRET_ID: 'marketplace/local/stripe',
      SETUP_SECRET_ID: 'marketplace/local/setup',
    });
  });

  it('refuses to start on a damaged secrets file rather than replace what it held', async () => {
    // Prepare
    const damaged = path.join(dir, 'damaged');
    await start('damaged');
    writeFileSync(path.join(damaged, 'secrets.json'), 'not json');

    // Act
    const attempt = startLocalSecretsManager(damaged);

    // Assess
    await expect(attempt).rejects.toThrow(/does not hold the local secrets\. Delete it/);
  });
});
