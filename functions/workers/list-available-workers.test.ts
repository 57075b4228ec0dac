import { describe, expect, it } from 'vitest';
import { handler } from './list-available-workers';
import { newId } from '../common/ids';
import { asOwner } from '../testing/applications';
import { dispatchableWorker, testCategory } from '../testing/dispatch';
import { invoke, sampleEvent } from '../testing/events';
import { everyRow } from '../testing/owner-jobs';
import { createTestWorker } from '../testing/workers';

describe('GET /api/admin/workers/available', () => {
  it('lists the pros of the trade on call and free, not one holding a job or off call', async () => {
    // Prepare
    const category = testCategory();
    const free = await dispatchableWorker(category, null, { fullName: 'Free Pro', hourlyRate: 6100 });
    await dispatchableWorker(category, null, { activeJobId: newId() });
    await createTestWorker({ categories: [category] });
    await dispatchableWorker(testCategory(), null);

    // Act
    const { items } = await everyRow(handler, 'list-available-workers', { category });

    // Assess
    expect(items).toEqual([{ id: free.id, fullName: 'Free Pro', categories: [category], hourlyRate: 6100, strikes: 0 }]);
  });

  it('refuses a request without a trade with 400', async () => {
    // Prepare
    const event = await asOwner('list-available-workers');

    // Act
    const res = await invoke(handler, { ...event, queryStringParameters: {} });

    // Assess
    expect(res.status).toBe(400);
  });

  it('answers 401 without the owner session', async () => {
    expect((await invoke(handler, sampleEvent('list-available-workers'))).status).toBe(401);
  });
});
