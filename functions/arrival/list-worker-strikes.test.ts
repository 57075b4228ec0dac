import { describe, expect, it } from 'vitest';
import { handler } from './list-worker-strikes';
import { newId } from '../common/ids';
import { asOwner } from '../testing/applications';
import { invoke, sampleEvent } from '../testing/events';
import { lateArrival, strikablePro } from '../testing/strikes';

const list = async (id: string, query: Record<string, string> = {}) => invoke(handler, { ...(await asOwner('list-worker-strikes', { id })), queryStringParameters: query });

describe('GET /api/admin/workers/{id}/strikes', () => {
  it("answers the worker's strikes with their evidence, oldest first, a page at a time", async () => {
    // Prepare
    const pro = await strikablePro();
    const first = await lateArrival(pro);
    const second = await lateArrival(pro);

    // Act
    const one = await list(pro.id, { limit: '1' });
    const two = await list(pro.id, { limit: '1', cursor: one.body.nextCursor });

    // Assess
    expect(one.status).toBe(200);
    expect(one.body.items).toEqual([expect.objectContaining({ id: first.id, workerId: pro.id, jobId: first.jobId, status: 'standing' })]);
    expect(two.body.items).toEqual([expect.objectContaining({ id: second.id })]);
    expect(one.body.items[0].evidence).toMatchObject({ lastFix: { source: 'dispatch' }, distanceM: expect.any(Number) });
  });

  it('answers an empty page for a worker without strikes', async () => {
    const pro = await strikablePro();

    expect((await list(pro.id)).body).toEqual({ items: [], nextCursor: null });
  });

  it('answers 404 for an unknown worker', async () => {
    expect((await list(newId())).status).toBe(404);
  });

  it('answers 401 without the owner session', async () => {
    expect((await invoke(handler, sampleEvent('list-worker-strikes'))).status).toBe(401);
  });
});
