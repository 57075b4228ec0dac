import { describe, expect, it } from 'vitest';
import { handler as approveWorker } from './approve-worker';
import { handler } from './get-analytics';
import { asOwner, pendingApplication } from './lib/testing/applications';
import { invoke, sampleEvent } from './lib/testing/events';
import { handler as rejectWorker } from './reject-worker';

const analytics = async () => (await invoke(handler, await asOwner('get-analytics'))).body;

describe('GET /api/admin/analytics', () => {
  it('reports real counts and no made-up rating', async () => {
    const res = await invoke(handler, await asOwner('get-analytics'));

    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      applications: { pending: expect.any(Number), approved: expect.any(Number), rejected: expect.any(Number) },
      companyApplications: { pending: expect.any(Number), approved: expect.any(Number), rejected: expect.any(Number) },
      workers: { active: expect.any(Number), pendingReview: expect.any(Number), terminated: expect.any(Number), available: expect.any(Number) },
      jobs: { byState: expect.any(Object), total: expect.any(Number) },
      averageRating: null,
      reviewCount: 0,
    });
    const byState = Object.values(res.body.jobs.byState as Record<string, number>);
    expect(byState.reduce((a, b) => a + b, 0)).toBe(res.body.jobs.total);
  });

  it('counts applications by status and workers as they are reviewed', async () => {
    // Prepare (other test files write to the same table at the same time: counts only grow here)
    const before = await analytics();
    const [a, b, c] = await Promise.all([pendingApplication(), pendingApplication(), pendingApplication()]);
    await invoke(approveWorker, await asOwner('approve-worker', { id: a.id }));
    await invoke(rejectWorker, await asOwner('reject-worker', { id: b.id }));

    // Act
    const after = await analytics();

    // Assess
    expect(c.id).toBeTruthy();
    expect(after.applications.pending).toBeGreaterThanOrEqual(1);
    expect(after.applications.approved).toBeGreaterThanOrEqual(before.applications.approved + 1);
    expect(after.applications.rejected).toBeGreaterThanOrEqual(before.applications.rejected + 1);
    expect(after.workers.active).toBeGreaterThanOrEqual(before.workers.active + 1);
  });

  it('answers 401 without the owner session', async () => {
    expect((await invoke(handler, sampleEvent('get-analytics'))).status).toBe(401);
  });
});
