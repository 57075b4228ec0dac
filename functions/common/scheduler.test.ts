import {
  ConflictException,
  CreateScheduleCommand,
  DeleteScheduleCommand,
  ResourceNotFoundException,
  SchedulerClient,
  ValidationException,
} from '@aws-sdk/client-scheduler';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cancelSchedule, scheduleOnce } from './scheduler';

const mock = mockClient(SchedulerClient);
beforeEach(() => mock.reset());

const meta = { $metadata: {} };

describe('scheduleOnce', () => {
  it('creates a one-time UTC schedule that invokes the timer function with the input, then deletes itself', async () => {
    mock.on(CreateScheduleCommand).resolves({ ScheduleArn: 'arn:aws:scheduler:us-east-1:000000000000:schedule/marketplace/x' });
    await scheduleOnce({
      name: 'offer-expiry-job_1-2',
      at: new Date('2026-03-04T05:06:07.000Z'),
      functionName: 'offer-expiry',
      input: { jobId: 'job_1', round: 2 },
    });
    const calls = mock.commandCalls(CreateScheduleCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0].input).toEqual({
      Name: 'offer-expiry-job_1-2',
      GroupName: 'marketplace',
      ScheduleExpression: 'at(2026-03-04T05:06:07)',
      ScheduleExpressionTimezone: 'UTC',
      FlexibleTimeWindow: { Mode: 'OFF' },
      ActionAfterCompletion: 'DELETE',
      Target: {
        Arn: 'arn:aws:lambda:us-east-1:000000000000:function:offer-expiry',
        RoleArn: expect.stringMatching(/^arn:aws:iam::\d{12}:role\//),
        Input: JSON.stringify({ jobId: 'job_1', round: 2 }),
      },
    });
  });

  it('rounds a time with milliseconds up to the next second, never early', async () => {
    mock.on(CreateScheduleCommand).resolves({ ScheduleArn: 'arn' });
    await scheduleOnce({ name: 'a', at: new Date('2026-03-04T05:06:07.001Z'), functionName: 'f', input: {} });
    expect(mock.commandCalls(CreateScheduleCommand)[0]!.args[0].input.ScheduleExpression).toBe('at(2026-03-04T05:06:08)');
  });

  it('treats a ConflictException (the same name already scheduled: a retry) as success', async () => {
    mock.on(CreateScheduleCommand).rejects(new ConflictException({ message: 'Schedule a already exists.', Message: 'Schedule a already exists.', ...meta }));
    await expect(
      scheduleOnce({ name: 'arrival-grace-job_1', at: new Date(), functionName: 'arrival-grace', input: {} }),
    ).resolves.toBeUndefined();
  });

  it('passes other errors on', async () => {
    mock.on(CreateScheduleCommand).rejects(new ValidationException({ message: 'bad', Message: 'bad', ...meta }));
    await expect(scheduleOnce({ name: 'a', at: new Date(), functionName: 'f', input: {} })).rejects.toThrow('bad');
  });

  it.each(['has space', 'slash/name', '', 'x'.repeat(65), 'ünïcode'])('refuses the name %j before any call', async (name) => {
    await expect(scheduleOnce({ name, at: new Date(), functionName: 'f', input: {} })).rejects.toThrow(/Invalid schedule name/);
    await expect(cancelSchedule(name)).rejects.toThrow(/Invalid schedule name/);
    expect(mock.calls()).toHaveLength(0);
  });
});

describe('scheduleOnce: dead-letter queue', () => {
  const queueArn = 'arn:aws:sqs:us-east-1:000000000000:marketplace-prod-dead-letters';
  afterEach(() => {
    delete process.env.SCHEDULER_DEAD_LETTER_ARN;
    vi.resetModules();
  });

  it('sends an undeliverable timer to the queue named by SCHEDULER_DEAD_LETTER_ARN when the stack sets it', async () => {
    // Prepare: the environment is read once per container, so load the module afresh with it set.
    process.env.SCHEDULER_DEAD_LETTER_ARN = queueArn;
    vi.resetModules();
    const fresh = await import('./scheduler');
    mock.on(CreateScheduleCommand).resolves({ ScheduleArn: 'arn' });

    // Act
    await fresh.scheduleOnce({ name: 'offer-job_1-w_1', at: new Date('2026-03-04T05:06:07Z'), functionName: 'expire-offer', input: {} });

    // Assess
    expect(mock.commandCalls(CreateScheduleCommand)[0]!.args[0].input.Target?.DeadLetterConfig).toEqual({ Arn: queueArn });
  });

  it('sends no DeadLetterConfig where none is configured (the local Scheduler)', async () => {
    // Prepare
    mock.on(CreateScheduleCommand).resolves({ ScheduleArn: 'arn' });

    // Act
    await scheduleOnce({ name: 'offer-job_1-w_1', at: new Date('2026-03-04T05:06:07Z'), functionName: 'expire-offer', input: {} });

    // Assess
    expect(mock.commandCalls(CreateScheduleCommand)[0]!.args[0].input.Target).not.toHaveProperty('DeadLetterConfig');
  });
});

describe('cancelSchedule', () => {
  it('deletes the schedule from the group', async () => {
    mock.on(DeleteScheduleCommand).resolves({});
    await cancelSchedule('arrival-grace-job_1');
    expect(mock.commandCalls(DeleteScheduleCommand)[0]!.args[0].input).toEqual({
      Name: 'arrival-grace-job_1',
      GroupName: 'marketplace',
    });
  });

  it('treats a ResourceNotFoundException (already fired or cancelled) as success', async () => {
    mock.on(DeleteScheduleCommand).rejects(new ResourceNotFoundException({ message: 'gone', Message: 'gone', ...meta }));
    await expect(cancelSchedule('arrival-grace-job_1')).resolves.toBeUndefined();
  });
});
