import { describe, expect, it } from 'vitest';
import { handler as getAdminStatus } from '../owner/get-admin-status';
import { handler } from './end-session';
import { ownerTestSession } from '../testing/owner';
import { invoke, sampleEvent, withCookies } from '../testing/events';

describe('POST /api/auth/logout', () => {
  it('ends the owner session server-side and clears the cookie, like the owner logout', async () => {
    // Prepare
    const { cookie } = await ownerTestSession();

    // Act
    const res = await invoke(handler, withCookies(sampleEvent('end-session'), [cookie]));
    const after = await invoke(getAdminStatus, withCookies(sampleEvent('get-admin-status'), [cookie]));

    // Assess
    expect(res.status).toBe(200);
    expect(res.cookies[0]).toMatch(/^owner_session=; Path=\/; Max-Age=0/);
    expect(after.body.isAdmin).toBe(false);
  });

  it('answers 200 without any session', async () => {
    const res = await invoke(handler, sampleEvent('end-session'));

    expect(res.status).toBe(200);
  });
});
