import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { keys } from '../shared/table';
import { handler as approveWorker } from './approve-worker';
import { sessions } from './lib/auth/sessions';
import { dynamo, tableName } from './lib/clients';
import { workersRepo } from './lib/data/workers';
import { newId } from './lib/ids';
import { asOwner, pendingApplication } from './lib/testing/applications';
import { invoke } from './lib/testing/events';
import { handler } from './terminate-worker';

async function approvedWorker(strikes: number): Promise<string> {
  const { id } = await pendingApplication();
  const { body } = await invoke(approveWorker, await asOwner('approve-worker', { id }));
  await dynamo.send(
    new UpdateCommand({
      TableName: tableName,
      Key: keys.worker(body.workerId),
      UpdateExpression: 'SET strikes = :s',
      ExpressionAttributeValues: { ':s': strikes },
    }),
  );
  return body.workerId;
}

const terminate = async (id: string) => invoke(handler, await asOwner('terminate-worker', { id }));

describe('POST /api/admin/workers/{id}/terminate', () => {
  it('terminates an active worker with 2 strikes and ends their sessions', async () => {
    // Prepare
    const workerId = await approvedWorker(2);
    const { secret } = await sessions.start('worker', workerId, 'worker@example.com');

    // Act
    const res = await terminate(workerId);

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Worker Terminated' });
    expect(await workersRepo.findById(workerId)).toMatchObject({ status: 'terminated', strikes: 2, isAvailable: false });
    expect(await sessions.find(secret)).toBeUndefined();
  });

  it('terminates a worker with more than 2 strikes', async () => {
    const workerId = await approvedWorker(3);

    expect((await terminate(workerId)).status).toBe(200);
  });

  it.each([0, 1])('refuses a worker with %i strikes with 409 and leaves them active', async (strikes) => {
    // Prepare
    const workerId = await approvedWorker(strikes);
    const { secret } = await sessions.start('worker', workerId, 'worker@example.com');

    // Act
    const res = await terminate(workerId);

    // Assess
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'ConflictError', message: 'Only an active worker with 2 or more strikes can be terminated.' });
    expect((await workersRepo.findById(workerId))?.status).toBe('active');
    expect(await sessions.find(secret)).toBeDefined();
  });

  it('refuses to terminate a worker twice', async () => {
    const workerId = await approvedWorker(2);
    await terminate(workerId);

    const again = await terminate(workerId);

    expect(again.status).toBe(409);
  });

  it('answers 404 for an unknown worker', async () => {
    expect((await terminate(newId())).status).toBe(404);
  });
});
