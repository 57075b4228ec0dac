import type { Stack } from 'aws-cdk-lib';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LambdaSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { FailedRuns } from '../failed-runs';
import { MailSending } from '../mail';
import type { Functions } from './functions';
import type { Settings } from './settings';

/**
 * Mail (infra/mail.ts): the sending domain's SES identity and configuration set, and the function
 * that marks the addresses SES reports as bouncing or complaining. Without a mail domain there is
 * none of it, and mail stays in the outbox, unsent.
 */
export class Mail {
  readonly sending?: MailSending;
  /** Marks the addresses SES reports as bouncing or complaining (functions/mail/record-mail-feedback.ts). */
  readonly feedbackFunction?: NodejsFunction;

  constructor(stack: Stack, { stage, mailDomain, siteDomain }: Settings, functions: Functions, failedRuns: FailedRuns) {
    if (!mailDomain) return;
    this.sending = new MailSending(stack, 'Mail', {
      domainName: mailDomain,
      configurationSetName: `${stack.stackName}-mail`,
      ...(siteDomain?.hostedZone ? { hostedZone: siteDomain.hostedZone } : {}),
    });
    this.feedbackFunction = functions.create('RecordMailFeedback', 'record-mail-feedback', {
      description: `Marks addresses SES reports as bouncing or complaining (${stage})`,
      environment: functions.environment,
      role: functions.roleFor({ table: { name: 'record-mail-feedback', table: 'write' }, failedRuns: true, own: 'record-mail-feedback' }),
    });
    // SNS invokes it asynchronously: a report it could not record is kept for replay, not lost.
    failedRuns.keepFailedRuns(this.feedbackFunction);
    this.sending.feedbackTopic.addSubscription(new LambdaSubscription(this.feedbackFunction));
  }

  /** What a function that sends mail is told: none without a mail domain. */
  get environment(): Record<string, string> {
    return this.sending?.environment ?? {};
  }

  /** The one right to send: from our address, through our configuration set. */
  grantSend(fn: NodejsFunction): void {
    this.sending?.grantSend(fn);
  }
}
