import { CreateScheduleCommand, DeleteScheduleCommand, SchedulerClient } from '@aws-sdk/client-scheduler';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { cancelArrival, scheduleArrival, timerNames } from './dispatch';

// The job timers as EventBridge Scheduler receives them (the handler tests use the local Scheduler).
const mock = mockClient(SchedulerClient);
beforeEach(() => mock.reset());

describe('the arrival timer', () => {
  it('is a one-time schedule at arriveBy, window off, deleted after it fires, aimed at enforce-arrival with the job and worker', async () => {
    // Prepare
    mock.on(CreateScheduleCommand).resolves({ ScheduleArn: 'arn' });
    const [jobId, workerId] = ['AbCdEfGhIjKlMnOpQrStUv', 'WkR1a2b3c4d5e6f7g8h9iJ'];

    // Act
    await scheduleArrival(jobId, workerId, '2026-11-22T10:45:00.000Z');

    // Assess
    const input = mock.commandCalls(CreateScheduleCommand)[0]!.args[0].input;
    expect(input).toMatchObject({
      Name: `arrive-${jobId}-${workerId}`,
      ScheduleExpression: 'at(2026-11-22T10:45:00)',
      ScheduleExpressionTimezone: 'UTC',
      FlexibleTimeWindow: { Mode: 'OFF' },
      ActionAfterCompletion: 'DELETE',
      Target: { Arn: expect.stringMatching(/:function:enforce-arrival$/), Input: JSON.stringify({ jobId, workerId }) },
    });
    expect(input.Name!.length).toBeLessThanOrEqual(64);
  });

  it('has the same name on a retry, so a retried accept cannot create a second one', () => {
    expect(timerNames.arrival('j', 'w')).toBe(timerNames.arrival('j', 'w'));
    expect(timerNames.offer('j', 'w')).not.toBe(timerNames.arrival('j', 'w'));
  });

  it('is deleted by name on arrival, and one already gone is not an error', async () => {
    mock.on(DeleteScheduleCommand).rejects(Object.assign(new Error('gone'), { name: 'ResourceNotFoundException' }));

    await expect(cancelArrival('j', 'w')).resolves.toBeUndefined();

    expect(mock.commandCalls(DeleteScheduleCommand)[0]!.args[0].input.Name).toBe('arrive-j-w');
  });
});
