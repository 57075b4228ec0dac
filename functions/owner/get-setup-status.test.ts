import { describe, expect, it } from 'vitest';
import { handler } from './get-setup-status';
import { invoke, sampleEvent } from '../testing/events';

const sample = sampleEvent('get-setup-status');

// needsSetup true before and false after setup is proven in setup-admin.test.ts, the one file that
// owns the singleton owner item (other files run in parallel against the same table).
describe('GET /api/admin/setup/status', () => {
  it('answers needsSetup and nothing else, to anyone', async () => {
    const res = await invoke(handler, sample);

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ needsSetup: expect.any(Boolean) });
  });

  it('takes no request body', async () => {
    const res = await invoke(handler, { ...sample, body: '{"x":1}' });

    expect(res.status).toBe(400);
  });
});
