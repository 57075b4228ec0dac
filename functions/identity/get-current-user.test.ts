import { describe, expect, it } from 'vitest';
import { handler } from './get-current-user';
import { sessions } from '../common/auth/sessions';
import { newId } from '../common/ids';
import { invoke, sampleEvent, withCookies } from '../testing/events';
import { ownerTestSession } from '../testing/owner';

const sample = sampleEvent('get-current-user');
const signedOut = { ok: false, error: 'UnauthorizedError', message: 'Not signed in' };

describe('GET /api/auth/me', () => {
  it('returns the owner of a live session cookie', async () => {
    const { cookie, ownerId } = await ownerTestSession('the-owner');

    const res = await invoke(handler, withCookies(sample, [cookie]));

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, user: { id: ownerId, role: 'admin', username: 'the-owner' } });
  });

  it('answers 401 with ok false when signed out', async () => {
    const res = await invoke(handler, sample);

    expect(res.status).toBe(401);
    expect(res.body).toEqual(signedOut);
  });

  it('answers 401 for an ended session', async () => {
    const { cookie, secret } = await ownerTestSession();
    await sessions.end(secret);

    const res = await invoke(handler, withCookies(sample, [cookie]));

    expect(res.status).toBe(401);
    expect(res.body).toEqual(signedOut);
  });

  it('does not take a worker token put in the owner cookie', async () => {
    const { secret } = await sessions.start('worker', newId(), 'worker@example.com');

    const res = await invoke(handler, withCookies(sample, [`owner_session=${secret}`]));

    expect(res.status).toBe(401);
  });
});
