import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { invoke, sampleEvent, withBody } from './lib/testing/events';
import { handler, throttleKey } from './login-admin';

const sample = sampleEvent('login-admin');

// Logins with the real owner's credentials (cookie, new session per login, the table storing only
// a hash, throttling that spares other addresses) are in setup-admin.test.ts, the one file that
// knows the owner's password. Here: what holds whoever the owner is.
const randomIp = () => `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 250) + 1).join('.')}`;
function fromIp(event: APIGatewayProxyEventV2, sourceIp: string): APIGatewayProxyEventV2 {
  return { ...event, requestContext: { ...event.requestContext, http: { ...event.requestContext.http, sourceIp } } };
}
const stranger = () => `stranger-${randomUUID().slice(0, 8)}`;

describe('POST /api/admin/login', () => {
  it('refuses an unknown username with 401 and no cookie', async () => {
    const res = await invoke(handler, fromIp(withBody(sample, { username: stranger(), password: 'some-password' }), randomIp()));

    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'UnauthorizedError', message: 'Invalid username or password' });
    expect(res.cookies).toEqual([]);
  });

  it('requires both fields', async () => {
    const res = await invoke(handler, withBody(sample, { username: '', password: '' }));

    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual({ username: 'Username is required', password: 'Password is required' });
  });

  it('refuses unknown fields', async () => {
    const res = await invoke(handler, withBody(sample, { username: 'owner', password: 'x', isAdmin: true }));

    expect(res.status).toBe(400);
  });

  it('answers 429 with Retry-After after 5 failures for one name and address, not for another address', async () => {
    // Prepare
    const username = stranger();
    const ip = randomIp();
    const attempt = (from: string) => invoke(handler, fromIp(withBody(sample, { username, password: 'guess' }), from));
    for (let i = 0; i < 5; i++) expect((await attempt(ip)).status).toBe(401);

    // Act
    const blocked = await attempt(ip);
    const elsewhere = await attempt(randomIp());

    // Assess
    expect(blocked.status).toBe(429);
    expect(blocked.headers['retry-after']).toMatch(/^\d+$/);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(elsewhere.status).toBe(401);
  });

  it('counts failures per name regardless of case, and per address', () => {
    const a = throttleKey('Owner', fromIp(sample, '10.0.0.1'));

    expect(a).toBe(throttleKey('owner', fromIp(sample, '10.0.0.1')));
    expect(a).not.toBe(throttleKey('owner', fromIp(sample, '10.0.0.2')));
  });
});
