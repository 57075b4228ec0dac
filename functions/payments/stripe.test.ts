import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { FUNCTION_TIMEOUT_SECONDS } from '../../infra/function-defaults';
import { startFaultProxy } from '../../infra/testing/fault-proxy';
import { STRIPE_MAX_NETWORK_RETRIES, STRIPE_TIMEOUT_MS, stripeWorstCaseMs } from './stripe';
import { invoke, sampleEvent } from '../testing/events';
import { createTestWorker, withBearer, workerToken } from '../testing/workers';

/** The Stripe the handlers reach, through a proxy a test can make stop answering. */
const proxy = await startFaultProxy(process.env.STRIPE_API_URL!);
afterEach(() => {
  proxy.set(undefined);
  vi.unstubAllEnvs();
});
afterAll(() => proxy.close());

describe('the Stripe client', () => {
  it('gives up on a call, every try and backoff included, well before the function itself times out', () => {
    // Prepare
    const functionMs = FUNCTION_TIMEOUT_SECONDS * 1000;

    // Act
    const worstCase = stripeWorstCaseMs();

    // Assess: at least a quarter of the function's time is left for the secret, DynamoDB and the answer.
    expect(STRIPE_TIMEOUT_MS * (STRIPE_MAX_NETWORK_RETRIES + 1)).toBeLessThan(worstCase);
    expect(worstCase).toBeLessThanOrEqual(functionMs * 0.75);
    // Stripe's own defaults (80 s, with retries) would outlast the function by far.
    expect(stripeWorstCaseMs(80_000, 2)).toBeGreaterThan(functionMs);
  });

  it('turns a Stripe that does not answer into a 503 with Retry-After and words a person can act on, within the function timeout', async () => {
    // Prepare: a fresh container whose Stripe answers nothing at all.
    const worker = await createTestWorker();
    const event = withBearer(sampleEvent('start-payout-onboarding'), await workerToken(worker.id));
    vi.resetModules();
    vi.stubEnv('STRIPE_API_URL', proxy.url);
    const { handler } = await import('./start-payout-onboarding');
    proxy.set({ kind: 'hang' });
    const started = Date.now();

    // Act
    const res = await invoke(handler, event);
    const elapsed = Date.now() - started;

    // Assess
    expect(res.status).toBe(503);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.body).toEqual({ error: 'ServiceUnavailableError', message: 'Our payment provider, Stripe, did not answer in time. Please try again in a few seconds.' });
    expect(proxy.faulted).toBe(STRIPE_MAX_NETWORK_RETRIES + 1);
    expect(elapsed).toBeGreaterThanOrEqual(STRIPE_TIMEOUT_MS * (STRIPE_MAX_NETWORK_RETRIES + 1));
    expect(elapsed).toBeLessThan(FUNCTION_TIMEOUT_SECONDS * 1000);
  });
});
