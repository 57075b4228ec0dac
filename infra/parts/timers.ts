import { ArnFormat, Aws, RemovalPolicy, type Stack } from 'aws-cdk-lib';
import { Effect, PolicyStatement, Role, ServicePrincipal, type IRole } from 'aws-cdk-lib/aws-iam';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { ScheduleGroup } from 'aws-cdk-lib/aws-scheduler';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import type { FailedRuns } from '../failed-runs';
import { timers, type TimerDef } from '../../shared/routes';
import type { Functions } from './functions';
import { pascal, type Settings } from './settings';

/**
 * The one-time timers (shared/routes.ts `timers`): functions that create an EventBridge Scheduler
 * schedule in the timer group when something must happen later, the role Scheduler assumes to
 * invoke the timer functions, and those functions.
 *
 * Names are built, not generated: a schedule's target is `<prefix><timer name>`
 * (functions/common/scheduler.ts), so the prefix must be known before the functions exist.
 */
export class Timers {
  readonly groupName: string;
  readonly group: ScheduleGroup;
  /** The role EventBridge Scheduler assumes to invoke the timer functions. */
  readonly schedulerRole: Role;
  /** What a function that sets timers is told: the group, the role to hand over, the targets, the dead letters. */
  readonly schedulingEnvironment: Record<string, string>;
  /** The timer functions, by timer name. */
  readonly functions: Record<string, NodejsFunction> = {};
  private readonly schedulesInGroup: string;

  constructor(
    private readonly stack: Stack,
    private readonly settings: Settings,
    deadLetterQueue: Queue,
  ) {
    this.groupName = `${stack.stackName}-timers`;
    // The group holds only pending one-time timers of this stack's functions: nothing to keep.
    this.group = new ScheduleGroup(stack, 'TimerGroup', {
      scheduleGroupName: this.groupName,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.schedulerRole = new Role(stack, 'TimerSchedulerRole', {
      description: `EventBridge Scheduler invokes the timer functions (${settings.stage})`,
      // Only schedules of this account, in this stack's group, may use the role (confused deputy).
      assumedBy: new ServicePrincipal('scheduler.amazonaws.com', {
        conditions: {
          StringEquals: { 'aws:SourceAccount': Aws.ACCOUNT_ID },
          ArnLike: { 'aws:SourceArn': this.group.scheduleGroupArn },
        },
      }),
    });
    this.schedulingEnvironment = {
      SCHEDULE_GROUP: this.groupName,
      SCHEDULER_ROLE_ARN: this.schedulerRole.roleArn,
      TIMER_TARGET_PREFIX: stack.formatArn({
        service: 'lambda',
        resource: 'function',
        resourceName: `${stack.stackName}-`,
        arnFormat: ArnFormat.COLON_RESOURCE_NAME,
      }),
      // functions/common/scheduler.ts gives every timer this DeadLetterConfig.
      SCHEDULER_DEAD_LETTER_ARN: deadLetterQueue.queueArn,
    };
    // Scheduler sends an undeliverable timer to the queue with the schedule's own role.
    deadLetterQueue.grantSendMessages(this.schedulerRole);
    this.schedulesInGroup = stack.formatArn({
      service: 'scheduler',
      resource: 'schedule',
      resourceName: `${this.groupName}/*`,
      arnFormat: ArnFormat.SLASH_RESOURCE_NAME,
    });
  }

  /** Create and delete the group's schedules, and hand Scheduler its role: nothing more. */
  grantScheduling(role: IRole): void {
    role.addToPrincipalPolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ['scheduler:CreateSchedule', 'scheduler:DeleteSchedule'],
        resources: [this.schedulesInGroup],
      }),
    );
    role.addToPrincipalPolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ['iam:PassRole'],
        resources: [this.schedulerRole.roleArn],
        conditions: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } },
      }),
    );
  }

  /**
   * The timer functions. They tell the customer and the worker what they changed (an offer expired,
   * a job reassigned). Scheduler invokes them asynchronously: a run that throws is retried by
   * Lambda, then recorded with its input in the dead-letter queue.
   */
  addFunctions(functions: Functions, failedRuns: FailedRuns, realtimeEnvironment: Record<string, string>): void {
    for (const timer of timers as readonly TimerDef[]) {
      const fn = functions.create(`${pascal(timer.name)}Timer`, timer.name, {
        description: `Timer ${timer.name}, invoked by EventBridge Scheduler (${this.settings.stage})`,
        functionName: `${this.stack.stackName}-${timer.name}`,
        environment: { ...functions.environment, ...(timer.scheduler ? this.schedulingEnvironment : {}), ...realtimeEnvironment },
        role: functions.roleFor({ table: timer, scheduler: timer.scheduler, realtime: true, failedRuns: true }),
      });
      failedRuns.keepFailedRuns(fn);
      this.functions[timer.name] = fn;
    }
    // The function ARNs, not a wildcard: the role can invoke the timers and no other function.
    const timerArns = Object.values(this.functions).map((fn) => fn.functionArn);
    if (timerArns.length) {
      this.schedulerRole.addToPolicy(
        new PolicyStatement({ effect: Effect.ALLOW, actions: ['lambda:InvokeFunction'], resources: timerArns }),
      );
    }
  }
}
