import { readFileSync } from 'node:fs';
import { Aws, Duration, RemovalPolicy, type Stack } from 'aws-cdk-lib';
import { Effect, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { CfnSchedule, ScheduleGroup } from 'aws-cdk-lib/aws-scheduler';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import type { FailedRuns } from '../failed-runs';
import { recurring, type RecurringDef } from '../../shared/routes';
import type { Functions } from './functions';
import type { Mail } from './mail';
import type { Realtime } from './realtime';
import { pascal, repoRoot, type Settings } from './settings';

/**
 * Recurring jobs (shared/routes.ts `recurring`): an EventBridge Scheduler cron schedule each, with a
 * role that may invoke that one function; the schedule's input is its sample event. Scheduler
 * presents the schedule's group, not the schedule, as aws:SourceArn when it assumes a role, so the
 * recurring schedules have a group of their own and each role trusts that group alone (no function
 * may create schedules in it: the timer rights are on the timer group, parts/timers.ts).
 */
export class RecurringJobs {
  /** The schedule group of the jobs' schedules, which alone their roles trust. */
  readonly group: ScheduleGroup;
  /** The jobs' functions, by name. */
  readonly functions: Record<string, NodejsFunction> = {};
  readonly schedules: CfnSchedule[] = [];

  constructor(
    stack: Stack,
    { stage }: Settings,
    parts: { functions: Functions; failedRuns: FailedRuns; deadLetterQueue: Queue; realtime: Realtime; mail: Mail },
  ) {
    const { functions, failedRuns, deadLetterQueue, realtime, mail } = parts;
    this.group = new ScheduleGroup(stack, 'RecurringGroup', {
      scheduleGroupName: `${stack.stackName}-recurring`,
      // It holds only this stack's own schedules: nothing to keep.
      removalPolicy: RemovalPolicy.DESTROY,
    });
    for (const job of recurring as readonly RecurringDef[]) {
      const fn = functions.create(`${pascal(job.name)}Recurring`, job.name, {
        description: `${job.description} (${stage})`,
        functionName: `${stack.stackName}-${job.name}`,
        environment: { ...functions.environment, ...(job.realtime ? realtime.environment : {}), ...(job.mail ? mail.environment : {}) },
        role: functions.roleFor({ table: job, realtime: job.realtime, documents: job.documents, failedRuns: true, ...(job.mail ? { own: job.name } : {}) }),
        timeout: Duration.minutes(5),
      });
      // The mail sweeper sends what the stream did not, with the same narrow right as send-mail.
      if (job.mail) mail.grantSend(fn);
      failedRuns.keepFailedRuns(fn);
      const role = new Role(stack, `${pascal(job.name)}ScheduleRole`, {
        description: `EventBridge Scheduler runs ${job.name} (${stage})`,
        assumedBy: new ServicePrincipal('scheduler.amazonaws.com', {
          conditions: {
            StringEquals: { 'aws:SourceAccount': Aws.ACCOUNT_ID },
            ArnLike: { 'aws:SourceArn': this.group.scheduleGroupArn },
          },
        }),
      });
      role.addToPolicy(new PolicyStatement({ effect: Effect.ALLOW, actions: ['lambda:InvokeFunction'], resources: [fn.functionArn] }));
      deadLetterQueue.grantSendMessages(role);
      const schedule = new CfnSchedule(stack, `${pascal(job.name)}Schedule`, {
        name: `${stack.stackName}-${job.name}`,
        groupName: this.group.scheduleGroupName,
        description: job.description,
        scheduleExpression: job.cron,
        scheduleExpressionTimezone: 'UTC',
        flexibleTimeWindow: { mode: 'OFF' },
        state: 'ENABLED',
        target: {
          arn: fn.functionArn,
          roleArn: role.roleArn,
          input: readFileSync(`${repoRoot}events/${job.name}.json`, 'utf8'),
          retryPolicy: { maximumRetryAttempts: 3, maximumEventAgeInSeconds: 6 * 3600 },
          deadLetterConfig: { arn: deadLetterQueue.queueArn },
        },
      });
      // The group is named by a literal, not a reference: the schedule must wait for it explicitly.
      schedule.node.addDependency(this.group);
      this.functions[job.name] = fn;
      this.schedules.push(schedule);
    }
  }

  /** The links in mail open the site: its public address, known only once the distribution is. */
  tellSiteUrl(siteUrl: string): void {
    for (const job of recurring as readonly RecurringDef[]) {
      if (job.mail) this.functions[job.name]?.addEnvironment('SITE_URL', siteUrl);
    }
  }
}
