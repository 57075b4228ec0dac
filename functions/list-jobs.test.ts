import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { keys } from '../shared/table';
import { dynamo, tableName } from './lib/clients';
import { newId } from './lib/ids';
import { asOwner } from './lib/testing/applications';
import { invoke, sampleEvent } from './lib/testing/events';
import { handler } from './list-jobs';

describe('GET /api/admin/jobs/all', () => {
  it('answers a list read from the jobs index', async () => {
    const res = await invoke(handler, await asOwner('list-jobs'));

    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
  });

  it('shows a job that carries the jobs index keys, in the owner\'s view', async () => {
    // Prepare: a job as the job repository stores it (under a test-only partition key, so no real job view sees it)
    const id = newId();
    const createdAt = new Date().toISOString();
    await dynamo.send(
      new PutCommand({
        TableName: tableName,
        Item: {
          pk: `TEST_JOB#${id}`,
          sk: 'JOB',
          ...keys.allJobs(createdAt),
          id,
          state: 'booked',
          category: 'plumbing',
          customerName: 'Dana',
          address: '1 Elm St, Austin',
          hourlyRate: 4500,
          createdAt,
          clientId: 'private-customer-id',
        },
      }),
    );

    // Act
    const res = await invoke(handler, await asOwner('list-jobs'));
    await dynamo.send(new DeleteCommand({ TableName: tableName, Key: { pk: `TEST_JOB#${id}`, sk: 'JOB' } }));

    // Assess
    expect(res.body.find((j: { id: string }) => j.id === id)).toEqual({
      id,
      category: 'plumbing',
      customerName: 'Dana',
      address: '1 Elm St, Austin',
      description: null,
      hourlyRate: 4500,
      createdAt,
      arrivedAt: null,
      startedAt: null,
      endedAt: null,
      state: 'booked',
      acceptedBy: null,
      totalHours: null,
    });
    expect(JSON.stringify(res.body)).not.toContain('private-customer-id');
  });

  it('answers 401 without the owner session', async () => {
    expect((await invoke(handler, sampleEvent('list-jobs'))).status).toBe(401);
  });
});
