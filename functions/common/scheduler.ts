import { CreateScheduleCommand, DeleteScheduleCommand, SchedulerClient } from '@aws-sdk/client-scheduler';
import { env } from './env';

/**
 * The one adapter for EventBridge Scheduler: one-time timers (offer expiry, arrival grace) that
 * invoke a timer function with a JSON input at a given time, then delete themselves. Locally
 * SCHEDULER_ENDPOINT points at the local Scheduler (infra/local/scheduler.ts).
 *
 * Names are chosen by the caller and deterministic (e.g. `offer-expiry-<jobId>-<round>`), so a
 * retried scheduleOnce finds its own earlier schedule (ConflictException: success) and cancel can
 * name what it cancels without storing anything.
 */

/** Created once per container; the endpoint is the only thing the local runtime changes. */
const scheduler = new SchedulerClient({ region: env.AWS_REGION, endpoint: env.SCHEDULER_ENDPOINT });

/** Sent where no role is configured: the local Scheduler does not assume roles. */
const LOCAL_ROLE_ARN = 'arn:aws:iam::000000000000:role/local-scheduler';
/** AWS's rule for schedule names. */
const SCHEDULE_NAME = /^[0-9a-zA-Z\-_.]{1,64}$/;

export interface OneTimeSchedule {
  /** Deterministic, [0-9a-zA-Z-_.], at most 64 characters. */
  name: string;
  /** When to fire; rounded up to the whole second (at() has no milliseconds), so never early. */
  at: Date;
  /** The timer function's name (functions/<area>/<name>.ts locally, the Lambda function name in AWS). */
  functionName: string;
  /** The event the function receives; JSON-serialisable. */
  input: unknown;
}

function checkName(name: string): void {
  if (!SCHEDULE_NAME.test(name)) {
    throw new Error(`Invalid schedule name ${JSON.stringify(name)}: use only 0-9 a-z A-Z - _ . and at most 64 characters`);
  }
}

function targetPrefix(): string {
  if (!env.TIMER_TARGET_PREFIX) {
    throw new Error(
      'TIMER_TARGET_PREFIX must be the Lambda function ARN prefix of timer targets: set it on every function that uses functions/common/scheduler.ts',
    );
  }
  return env.TIMER_TARGET_PREFIX;
}

/** `at(2026-01-02T03:04:05)` in UTC, rounded up to the whole second. */
export function atExpression(at: Date): string {
  const ms = at.getTime();
  if (Number.isNaN(ms)) throw new Error('scheduleOnce needs a valid Date');
  return `at(${new Date(Math.ceil(ms / 1000) * 1000).toISOString().slice(0, 19)})`;
}

const errorName = (error: unknown) => (error instanceof Error ? error.name : undefined);

/** Creates a one-time schedule; one of the same name already there (a retry) counts as success. */
export async function scheduleOnce({ name, at, functionName, input }: OneTimeSchedule): Promise<void> {
  checkName(name);
  const expression = atExpression(at);
  const payload = JSON.stringify(input);
  if (payload === undefined) throw new Error('scheduleOnce needs a JSON-serialisable input');
  try {
    await scheduler.send(
      new CreateScheduleCommand({
        Name: name,
        GroupName: env.SCHEDULE_GROUP,
        ScheduleExpression: expression,
        ScheduleExpressionTimezone: 'UTC',
        FlexibleTimeWindow: { Mode: 'OFF' },
        ActionAfterCompletion: 'DELETE',
        Target: {
          Arn: `${targetPrefix()}${functionName}`,
          RoleArn: env.SCHEDULER_ROLE_ARN ?? LOCAL_ROLE_ARN,
          Input: payload,
          // A timer Scheduler could not deliver (its retries spent) lands here, where an alarm sees it.
          ...(env.SCHEDULER_DEAD_LETTER_ARN ? { DeadLetterConfig: { Arn: env.SCHEDULER_DEAD_LETTER_ARN } } : {}),
        },
      }),
    );
  } catch (error) {
    if (errorName(error) !== 'ConflictException') throw error;
  }
}

/** Deletes a schedule; one already gone (fired or cancelled) counts as success. */
export async function cancelSchedule(name: string): Promise<void> {
  checkName(name);
  try {
    await scheduler.send(new DeleteScheduleCommand({ Name: name, GroupName: env.SCHEDULE_GROUP }));
  } catch (error) {
    if (errorName(error) !== 'ResourceNotFoundException') throw error;
  }
}
