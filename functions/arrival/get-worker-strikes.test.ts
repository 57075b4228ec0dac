import { describe, expect, it } from 'vitest';
import { handler } from './get-worker-strikes';
import { STRIKES_TO_SUSPEND } from '../../shared/schemas/strikes';
import { invoke, sampleEvent } from '../testing/events';
import { lateArrival, strikablePro } from '../testing/strikes';
import { createTestWorker, withBearer, workerToken } from '../testing/workers';
import { SUSPENDED_BY_STRIKES } from './enforce-arrival';

const record = async (workerId: string) => invoke(handler, withBearer(sampleEvent('get-worker-strikes'), await workerToken(workerId)));

describe('GET /api/workers/strikes', () => {
  it("answers the pro's strikes, newest first, with their evidence, and where the account stands", async () => {
    // Prepare
    const pro = await strikablePro();
    const first = await lateArrival(pro);
    const second = await lateArrival(pro);

    // Act
    const res = await record(pro.id);

    // Assess: the second strike suspended the pro, who still reads their record.
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'suspended', statusReason: SUSPENDED_BY_STRIKES, strikes: 2, strikesToSuspend: STRIKES_TO_SUSPEND });
    expect(res.body.items.map((s: { id: string }) => s.id)).toEqual([second.id, first.id]);
    expect(res.body.items[0]).toMatchObject({
      jobId: second.jobId,
      reason: 'late_arrival',
      status: 'standing',
      evidence: { arriveBy: expect.any(String), lastFix: { source: 'dispatch' }, jobHasPosition: true },
    });
    expect(res.body.items[0].evidence.distanceM).toBeGreaterThan(2500);
  });

  it('answers an empty record for a pro without strikes', async () => {
    const pro = await createTestWorker();

    const res = await record(pro.id);

    expect(res.body).toEqual({ status: 'active', statusReason: null, statusChangedAt: null, strikes: 0, strikesToSuspend: STRIKES_TO_SUSPEND, items: [] });
  });

  it('answers 401 without a worker token', async () => {
    expect((await invoke(handler, sampleEvent('get-worker-strikes'))).status).toBe(401);
  });
});
