import { describe, expect, it } from 'vitest';
import { sessions } from '../common/auth/sessions';
import { invoke, sampleEvent, withCookies } from '../testing/events';
import { ownerTestSession } from '../testing/owner';
import { handler } from './logout-admin';

const sample = sampleEvent('logout-admin');
const cleared = /^owner_session=; Path=\/; Max-Age=0; SameSite=Lax; HttpOnly$/;

describe('POST /api/admin/logout', () => {
  it('ends the session server-side and clears the cookie', async () => {
    // Prepare
    const { cookie, secret } = await ownerTestSession();

    // Act
    const res = await invoke(handler, withCookies(sample, [cookie]));

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    expect(res.cookies).toHaveLength(1);
    expect(res.cookies[0]).toMatch(cleared);
    expect(await sessions.find(secret)).toBeUndefined();
  });

  it('ends only the session it was given', async () => {
    const [mine, other] = [await ownerTestSession(), await ownerTestSession()];

    await invoke(handler, withCookies(sample, [mine.cookie]));

    expect(await sessions.find(other.secret)).toBeDefined();
  });

  it.each([
    ['without a cookie', []],
    ['with a malformed cookie', ['owner_session=garbage']],
    ['with an already ended session', [`owner_session=${'B'.repeat(43)}`]],
  ])('still answers ok and clears the cookie %s', async (_, cookies) => {
    const res = await invoke(handler, withCookies(sample, cookies));

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    expect(res.cookies[0]).toMatch(cleared);
  });
});
