import { afterEach, describe, expect, it, vi } from 'vitest';
import { readSecretFields } from '../common/secrets';
import { invoke, sampleEvent } from '../testing/events';

const sample = sampleEvent('get-vapid-public-key');

/** The handler as a fresh container told this VAPID secret id (none: undefined) would load it. */
async function handlerWith(secretId: string | undefined) {
  vi.resetModules();
  vi.stubEnv('VAPID_SECRET_ID', secretId);
  return (await import('./get-vapid-public-key')).handler;
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('GET /api/push/vapid-public-key', () => {
  it('answers the public key of the VAPID secret, the one the browser subscribes with, to anyone', async () => {
    // Prepare
    const keys = await readSecretFields('vapid', ['publicKey', 'privateKey']);
    const handler = await handlerWith(process.env.VAPID_SECRET_ID);

    // Act
    const res = await invoke(handler, sample);

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ publicKey: keys.publicKey });
    expect(JSON.stringify(res.body)).not.toContain(keys.privateKey);
  });

  it('answers 503 saying push is not set up when the server was given no VAPID secret', async () => {
    const handler = await handlerWith(undefined);

    const res = await invoke(handler, sample);

    expect(res.status).toBe(503);
    expect(res.body.message).toMatch(/not set up on this server/);
  });

  it('answers 503 with Retry-After, and no detail, when the VAPID secret cannot be read', async () => {
    // Prepare: an id naming no secret, as after a deploy with the wrong vapidSecretName.
    const handler = await handlerWith('marketplace/local/no-such-secret');

    // Act
    const res = await invoke(handler, sample);

    // Assess
    expect(res.status).toBe(503);
    expect(Number(res.headers['retry-after'])).toBe(60);
    expect(res.body).toEqual({ error: 'ServiceUnavailableError', message: 'Push notifications are unavailable right now. Please try again in a minute.' });
  });
});
