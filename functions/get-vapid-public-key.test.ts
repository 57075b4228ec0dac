import { afterEach, describe, expect, it, vi } from 'vitest';
import { invoke, sampleEvent } from './lib/testing/events';

const sample = sampleEvent('get-vapid-public-key');

/** The handler as a fresh container with this environment would load it (env is parsed at import). */
async function handlerWith(vapid: { VAPID_PUBLIC_KEY?: string; VAPID_PRIVATE_KEY?: string }) {
  vi.resetModules();
  vi.stubEnv('VAPID_PUBLIC_KEY', vapid.VAPID_PUBLIC_KEY);
  vi.stubEnv('VAPID_PRIVATE_KEY', vapid.VAPID_PRIVATE_KEY);
  return (await import('./get-vapid-public-key')).handler;
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('GET /api/push/vapid-public-key', () => {
  it('answers the public key the browser subscribes with, to anyone', async () => {
    // Prepare
    const { vapidKeyPair } = await import('./lib/testing/fake-push-service');
    const pair = vapidKeyPair();
    const handler = await handlerWith({ VAPID_PUBLIC_KEY: pair.publicKey, VAPID_PRIVATE_KEY: pair.privateKey });

    // Act
    const res = await invoke(handler, sample);

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ publicKey: pair.publicKey });
    expect(JSON.stringify(res.body)).not.toContain(pair.privateKey);
  });

  it('answers 503 saying push is not set up when the server has no VAPID keys', async () => {
    const handler = await handlerWith({});

    const res = await invoke(handler, sample);

    expect(res.status).toBe(503);
    expect(res.body.message).toMatch(/not set up on this server/);
  });
});
