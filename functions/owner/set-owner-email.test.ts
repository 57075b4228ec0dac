import { describe, expect, it } from 'vitest';
import { handler } from './set-owner-email';
import { invoke, sampleEvent, withBody, withCookies } from '../testing/events';
import { ownerTestSession } from '../testing/owner';

const sample = sampleEvent('set-owner-email');

// Changing the real owner's email (a wrong current password, the new address taking the reset
// links) is in setup-admin.test.ts, the one file that knows the owner's password. Here: what holds
// whoever the owner is.
describe('PUT /api/admin/email', () => {
  it('answers 401 without an owner session', async () => {
    // Act
    const res = await invoke(handler, withBody(sample, { email: 'owner@example.com', currentPassword: 'whatever-it-is' }));

    // Assess
    expect(res.status).toBe(401);
  });

  it("puts each problem's message on its own field, an address mail cannot reach included", async () => {
    // Prepare
    const { cookie } = await ownerTestSession();

    // Act
    const empty = await invoke(handler, withCookies(withBody(sample, { email: '', currentPassword: '' }), [cookie]));
    const misspelt = await invoke(handler, withCookies(withBody(sample, { email: 'sam@gmial.com', currentPassword: 'x' }), [cookie]));

    // Assess
    expect(empty.status).toBe(400);
    expect(empty.body.fields).toEqual({ email: 'Enter a valid email address', currentPassword: 'Current password is required' });
    expect(misspelt.status).toBe(400);
    expect(misspelt.body.fields).toEqual({ email: 'Mail to gmial.com cannot arrive. Did you mean sam@gmail.com?' });
  });

  it('answers 401 to a session of nobody who is the owner, before looking at the password', async () => {
    // Prepare: a session the test made for an owner id that is not the account's
    const { cookie } = await ownerTestSession();

    // Act
    const res = await invoke(handler, withCookies(withBody(sample, { email: 'owner@example.com', currentPassword: 'not-checked' }), [cookie]));

    // Assess
    expect(res.status).toBe(401);
  });
});
