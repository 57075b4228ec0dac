import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deviceCookies } from '../common/auth/device-cookies';
import { loginThrottle, throttleClock } from '../common/auth/throttle';
import { newSecret } from '../common/auth/tokens';
import { newId } from '../common/ids';
import { fromAddress, invoke, sampleEvent, withBody, withCookies } from '../testing/events';
import { handler } from './login-admin';

const sample = sampleEvent('login-admin');

// Logins with the real owner's credentials (cookie, new session per login, the table storing only
// a hash, throttling that spares other addresses) are in setup-admin.test.ts, the one file that
// knows the owner's password. Here: what holds whoever the owner is.
const randomIp = () => `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 250) + 1).join('.')}`;
const fromIp = (event: APIGatewayProxyEventV2, address: string): APIGatewayProxyEventV2 => fromAddress(event, address);
const stranger = () => `stranger-${randomUUID().slice(0, 8)}`;

describe('POST /api/admin/login', () => {
  afterEach(() => vi.restoreAllMocks());

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

  it('counts failures per name regardless of case', async () => {
    // Prepare
    const username = stranger();
    const ip = randomIp();
    for (let i = 0; i < 5; i++) {
      const name = i % 2 ? username.toUpperCase() : username;
      expect((await invoke(handler, fromIp(withBody(sample, { username: name, password: 'guess' }), ip))).status).toBe(401);
    }

    // Act
    const res = await invoke(handler, fromIp(withBody(sample, { username: username.toUpperCase(), password: 'guess' }), ip));

    // Assess
    expect(res.status).toBe(429);
  });

  it.each([
    ['a device cookie naming another name', async () => (await deviceCookies.issue('admin', newId(), stranger())).split(';')[0]!],
    ['a device cookie nobody issued', async () => `owner_device=${newSecret()}`],
  ])('counts failures with %s as failures without one: per name and address', async (_, deviceCookie) => {
    // Prepare
    const username = stranger();
    const ip = randomIp();
    const cookie = await deviceCookie();
    const attempt = () => invoke(handler, withCookies(fromIp(withBody(sample, { username, password: 'guess' }), ip), [cookie]));
    for (let i = 0; i < 5; i++) expect((await attempt()).status).toBe(401);

    // Act
    const res = await attempt();

    // Assess
    expect(res.status).toBe(429);
  });

  it('answers 429 to an address after 20 failures over any names, then lets it try again once the 15 minutes are over', async () => {
    // Prepare: the clock stands still, then moves (nothing sleeps); 19 failures on other names
    // are recorded through the throttle itself, the 20th is a real login
    const start = Date.UTC(2026, 10, 22, 16, 0, 0);
    const clock = vi.spyOn(throttleClock, 'now').mockReturnValue(start);
    const ip = randomIp();
    for (let i = 0; i < 19; i++) await loginThrottle.begin('admin-login', { account: stranger(), address: ip });
    const attempt = () => invoke(handler, fromIp(withBody(sample, { username: stranger(), password: 'guess' }), ip));
    expect((await attempt()).status).toBe(401);

    // Act
    const blocked = await attempt();
    clock.mockReturnValue(start + 14 * 60_000);
    const stillBlocked = await attempt();
    clock.mockReturnValue(start + 15 * 60_000);
    const afterWindow = await attempt();

    // Assess: the same answer whether or not the name exists, with the wait until the window ends
    expect(blocked).toMatchObject({ status: 429, body: { error: 'TooManyRequestsError', message: 'Too many failed attempts. Try again in 15 minutes.' } });
    expect(blocked.headers['retry-after']).toBe('900');
    expect(stillBlocked).toMatchObject({ status: 429, body: { message: 'Too many failed attempts. Try again in 1 minute.' } });
    expect(stillBlocked.headers['retry-after']).toBe('60');
    expect(afterWindow.status).toBe(401);
  });
});
