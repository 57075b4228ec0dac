import { describe, expect, it } from 'vitest';
import { handler } from './list-pro-figures';
import { asOwner, everyPage } from '../testing/applications';
import { acceptedJob, clockOn, paidInvoice, privateDay, sentJob, verifiedJob, withQuery } from '../testing/analytics';
import { dispatchableWorker, testCategory } from '../testing/dispatch';
import { invoke, sampleEvent } from '../testing/events';

describe('GET /api/admin/analytics/pros', () => {
  it('lists each pro with their rating, earnings and strikes, a page at a time', async () => {
    // Prepare: a pro paid once ($90.00 share of a $100.00 invoice), one with strikes and nothing earned
    const at = clockOn(privateDay());
    const category = testCategory();
    const earner = await dispatchableWorker(category, null, { hourlyRate: 5000 });
    const struck = await dispatchableWorker(category, null, { strikes: 2 });
    const job = await verifiedJob(await acceptedJob(await sentJob(category, null, at), earner, at, 1, 2), earner, at, 10);
    await paidInvoice(job, earner, at, 200, 'transferred');

    // Act
    const first = await invoke(handler, withQuery(await asOwner('list-pro-figures'), { limit: '2' }));
    const { items } = await everyPage(handler, 'list-pro-figures');

    // Assess
    expect(first.status).toBe(200);
    expect(first.body.items.length).toBeLessThanOrEqual(2);
    expect(items.find((p: { id: string }) => p.id === earner.id)).toMatchObject({ earnedCents: 9000, paidJobs: 1, strikes: 0, averageRating: null, reviewCount: 0 });
    expect(items.find((p: { id: string }) => p.id === struck.id)).toMatchObject({ earnedCents: 0, paidJobs: 0, strikes: 2 });
  });

  it('answers 401 without the owner session', async () => {
    expect((await invoke(handler, sampleEvent('list-pro-figures'))).status).toBe(401);
  });
});
