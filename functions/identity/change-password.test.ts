import { describe, expect, it } from 'vitest';
import { handler } from './change-password';
import { invoke, sampleEvent, withBody, withCookies } from '../testing/events';
import { ownerSessionCookie } from '../testing/owner';

const sample = sampleEvent('change-password');

// Changing the real owner's password (wrong current password, same password, other sessions
// ended, the current one kept, two racing changes) is in setup-admin.test.ts, the one file that
// knows the owner's password. Here: what holds whoever the owner is.
describe('POST /api/auth/change-password', () => {
  it('answers 401 without an owner session', async () => {
    const res = await invoke(handler, sample);

    expect(res.status).toBe(401);
  });

  it("puts each problem's message on its own field", async () => {
    const cookie = await ownerSessionCookie();

    const res = await invoke(
      handler,
      withCookies(withBody(sample, { currentPassword: '', newPassword: 'short', confirmPassword: 'other' }), [cookie]),
    );

    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual({
      currentPassword: 'Current password is required',
      newPassword: 'New password must be at least 8 characters',
      confirmPassword: "New passwords don't match",
    });
  });

  it('refuses a session that is not the set-up owner (e.g. a local dev-login one)', async () => {
    const cookie = await ownerSessionCookie();

    const res = await invoke(handler, withCookies(sample, [cookie]));

    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Log in as the owner to continue.');
  });
});
