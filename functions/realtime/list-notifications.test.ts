import { describe, expect, it } from 'vitest';
import { handler } from './list-notifications';
import { newId } from '../common/ids';
import { notify } from './realtime';
import { invoke, sampleEvent, withCookies } from '../testing/events';
import { createTestWorker, withBearer, workerToken } from '../testing/workers';

const sample = sampleEvent('list-notifications');

describe('GET /api/notifications', () => {
  it("answers the signed-in person's own notifications, newest first", async () => {
    // Prepare
    const worker = await createTestWorker();
    await notify('worker', worker.id, { type: 'job_created', title: 'First', message: 'a', priority: 'high', actionUrl: null, jobId: null });
    await new Promise((r) => setTimeout(r, 5));
    await notify('worker', worker.id, { type: 'job_created', title: 'Second', message: 'b', priority: 'high', actionUrl: null, jobId: null });
    await notify('customer', newId(), { type: 'job_created', title: 'Not theirs', message: 'c', priority: 'low', actionUrl: null, jobId: null });

    // Act
    const res = await invoke(handler, withBearer(withCookies(sample, []), await workerToken(worker.id)));

    // Assess
    expect(res.status).toBe(200);
    expect(res.body.map((n: { title: string }) => n.title)).toEqual(['Second', 'First']);
  });

  it('answers a visitor with nobody signed in with an empty list', async () => {
    const res = await invoke(handler, withCookies(sample, []));

    expect(res.body).toEqual([]);
  });
});
