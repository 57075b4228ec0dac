import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { keys } from '../../shared/entities';
import { handler as getSelf } from '../workers/get-worker-self';
import { hashSecret } from '../common/auth/tokens';
import { dynamo, tableName } from '../common/clients';
import { invoke, sampleEvent } from '../testing/events';
import { createTestWorker, withBearer, workerToken } from '../testing/workers';
import { handler } from './logout-worker';

const sample = sampleEvent('logout-worker');
const me = (token: string) => invoke(getSelf, withBearer(sampleEvent('get-worker-self'), token));

describe('POST /api/workers/logout', () => {
  it('ends the session server-side: the same token stops working', async () => {
    // Prepare
    const worker = await createTestWorker();
    const token = await workerToken(worker.id);

    // Act
    const res = await invoke(handler, withBearer(sample, token));

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    const row = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.session(hashSecret(token)) }));
    expect(row.Item).toBeUndefined();
    expect((await me(token)).status).toBe(401);
  });

  it("ends only this session: the worker's other devices stay logged in", async () => {
    const worker = await createTestWorker();
    const [phone, laptop] = await Promise.all([workerToken(worker.id), workerToken(worker.id)]);

    await invoke(handler, withBearer(sample, phone));

    expect((await me(laptop)).status).toBe(200);
  });

  it('lets a terminated worker log out', async () => {
    const worker = await createTestWorker({ status: 'terminated', strikes: 2 });
    const token = await workerToken(worker.id);

    const res = await invoke(handler, withBearer(sample, token));

    expect(res.status).toBe(200);
    expect((await me(token)).status).toBe(401);
  });

  it('refuses a call without a token with 401', async () => {
    const res = await invoke(handler, sample);

    expect(res.status).toBe(401);
  });
});
