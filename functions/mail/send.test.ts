import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { FUNCTION_TIMEOUT_SECONDS } from '../../infra/function-defaults';
import { startFaultProxy } from '../../infra/testing/fault-proxy';
import { SES_CONNECTION_TIMEOUT_MS, SES_MAX_ATTEMPTS, SES_REQUEST_TIMEOUT_MS, SES_SEND_LIMIT_MS } from '../common/clients';
import { MAIL_SENDING_LEASE_SECONDS } from './data/mail';

/** The local SES the tests send to, through a proxy a test can make stop answering. */
const proxy = await startFaultProxy(process.env.SES_ENDPOINT!);
afterEach(() => {
  proxy.set(undefined);
  vi.unstubAllEnvs();
});
afterAll(() => proxy.close());

const mail = { to: 'dana@example.com', subject: 'Hello', text: 'Hi', html: '<p>Hi</p>', kind: 'receipt' } as const;

describe('the SES client', () => {
  it('gives up on a send, every try and backoff included, with time left in the function, and well inside the sending lease', () => {
    // Prepare
    const functionMs = FUNCTION_TIMEOUT_SECONDS * 1000;

    // Assess: tries × (connect + answer) + backoff is the limit, and a fifth of the function is left for the claim and the mark.
    expect(SES_SEND_LIMIT_MS).toBeGreaterThanOrEqual(SES_MAX_ATTEMPTS * (SES_CONNECTION_TIMEOUT_MS + SES_REQUEST_TIMEOUT_MS));
    expect(SES_SEND_LIMIT_MS).toBeLessThanOrEqual(functionMs * 0.8);
    // The lease outlasts the whole function, so a live send is never claimed by another.
    expect(MAIL_SENDING_LEASE_SECONDS * 1000).toBeGreaterThan(functionMs + SES_SEND_LIMIT_MS);
  });

  it('ends a send to an SES that never answers within the limit, after its tries', async () => {
    // Prepare: a fresh container whose SES takes the connection and answers nothing.
    vi.resetModules();
    vi.stubEnv('SES_ENDPOINT', proxy.url);
    const { sendMail } = await import('./send');
    proxy.set({ kind: 'hang' });
    const started = Date.now();

    // Act
    const error = await sendMail(mail).catch((e: unknown) => e as Error);
    const elapsed = Date.now() - started;

    // Assess
    expect(error).toBeInstanceOf(Error);
    expect(proxy.faulted).toBe(SES_MAX_ATTEMPTS);
    expect(elapsed).toBeGreaterThanOrEqual(SES_REQUEST_TIMEOUT_MS * SES_MAX_ATTEMPTS);
    expect(elapsed).toBeLessThan(SES_SEND_LIMIT_MS + 500);
  });
});
