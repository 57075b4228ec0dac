import { describe, expect, it } from 'vitest';
import { handler } from './get-admin-status';
import { sessions } from '../common/auth/sessions';
import { invoke, sampleEvent, withCookies } from '../testing/events';
import { ownerTestSession } from '../testing/owner';
import { newId } from '../common/ids';

const sample = sampleEvent('get-admin-status');

// Whether the owner is set up (isSetup true/false) is proven in setup-admin.test.ts, the one file
// that owns the singleton owner item; here the table's owner state is whatever other files left.
describe('GET /api/admin/status', () => {
  it('says admin for a live owner session cookie', async () => {
    const { cookie } = await ownerTestSession();

    const res = await invoke(handler, withCookies(sample, [cookie]));

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ isAdmin: true, isSetup: expect.any(Boolean) });
  });

  it('says not admin without a cookie', async () => {
    const res = await invoke(handler, sample);

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ isAdmin: false, isSetup: expect.any(Boolean) });
  });

  it.each([
    ['a malformed cookie', 'owner_session=not-a-secret'],
    ['an unknown secret', `owner_session=${'A'.repeat(43)}`],
  ])('says not admin for %s', async (_, cookie) => {
    const res = await invoke(handler, withCookies(sample, [cookie]));

    expect(res.body.isAdmin).toBe(false);
  });

  it('says not admin for a worker session secret put in the owner cookie', async () => {
    const { secret } = await sessions.start('worker', newId(), 'worker@example.com');

    const res = await invoke(handler, withCookies(sample, [`owner_session=${secret}`]));

    expect(res.body.isAdmin).toBe(false);
  });

  it('says not admin once the session has ended', async () => {
    const { cookie, secret } = await ownerTestSession();
    await sessions.end(secret);

    const res = await invoke(handler, withCookies(sample, [cookie]));

    expect(res.body.isAdmin).toBe(false);
  });
});
