import { describe, expect, it } from 'vitest';
import { handler } from './get-owner-email';
import { invoke, sampleEvent, withCookies } from '../testing/events';
import { ownerTestSession } from '../testing/owner';

const sample = sampleEvent('get-owner-email');

// Reading the real owner's email back is in setup-admin.test.ts, which sets the owner up. Here:
// what holds whoever the owner is.
describe('GET /api/admin/email', () => {
  it('answers 401 without an owner session', async () => {
    // Act
    const res = await invoke(handler, sample);

    // Assess
    expect(res.status).toBe(401);
  });

  it('answers 401 to a session of nobody who is the owner: no address leaves for it', async () => {
    // Prepare
    const { cookie } = await ownerTestSession();

    // Act
    const res = await invoke(handler, withCookies(sample, [cookie]));

    // Assess
    expect(res.status).toBe(401);
    expect(JSON.stringify(res.body)).not.toContain('@');
  });
});
