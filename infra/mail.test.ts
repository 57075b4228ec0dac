import { Match, type Template } from 'aws-cdk-lib/assertions';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MarketplaceStack } from './marketplace-stack';
import { unacknowledgedNagFindings } from './nag';
import { testSynth } from './testing/synth';

const { synth, cleanup } = testSynth();
let stack: MarketplaceStack;
let template: Template;

beforeAll(() => {
  ({ stack, template } = synth({ mailDomain: 'fixly.app' }));
}, 120_000);

afterAll(() => cleanup());

type Statement = { Action: string | string[]; Resource: unknown; Condition?: unknown };

/** Every policy statement of the roles a function is given, flattened. */
function statementsOf(fn: NodejsFunction): Statement[] {
  const roleId = stack.getLogicalId(fn.role!.node.defaultChild as never);
  const policies = Object.values(template.findResources('AWS::IAM::Policy')) as { Properties: { Roles: unknown[]; PolicyDocument: { Statement: Statement[] } } }[];
  return policies.filter((p) => JSON.stringify(p.Properties.Roles).includes(roleId)).flatMap((p) => p.Properties.PolicyDocument.Statement);
}

const actionsOf = (s: Statement) => (Array.isArray(s.Action) ? s.Action : [s.Action]);

function environmentOf(fn: NodejsFunction): Record<string, unknown> {
  const id = stack.getLogicalId(fn.node.defaultChild as CfnFunction);
  const resource = template.findResources('AWS::Lambda::Function')[id] as { Properties: { Environment: { Variables: Record<string, unknown> } } };
  return resource.Properties.Environment.Variables;
}

describe('mail through SES (infra/mail.ts)', () => {
  it('makes the sending domain an SES identity signed with Easy DKIM, through the configuration set', () => {
    // Assess
    template.hasResourceProperties('AWS::SES::EmailIdentity', {
      EmailIdentity: 'fixly.app',
      DkimAttributes: { SigningEnabled: true },
      DkimSigningAttributes: { NextSigningKeyLength: 'RSA_2048_BIT' },
      ConfigurationSetAttributes: { ConfigurationSetName: Match.anyValue() },
    });
  });

  it('has a configuration set that keeps bounced and complaining addresses off the list', () => {
    // Assess
    template.hasResourceProperties('AWS::SES::ConfigurationSet', {
      Name: 'Marketplace-prod-mail',
      SuppressionOptions: { SuppressedReasons: ['BOUNCE', 'COMPLAINT'] },
    });
  });

  it('publishes bounces and complaints to a topic whose subscriber marks the addresses', () => {
    // Act
    const destinations = Object.values(template.findResources('AWS::SES::ConfigurationSetEventDestination')) as {
      Properties: { EventDestination: { MatchingEventTypes: string[]; SnsDestination: { TopicARN: { Ref: string } } } };
    }[];
    const subscriptions = Object.values(template.findResources('AWS::SNS::Subscription')) as { Properties: { Protocol: string; TopicArn: { Ref: string }; Endpoint: unknown } }[];
    const feedbackId = stack.getLogicalId(stack.mailFeedbackFunction!.node.defaultChild as CfnFunction);

    // Assess
    expect(destinations).toHaveLength(1);
    const [destination] = destinations;
    expect(destination!.Properties.EventDestination.MatchingEventTypes.sort()).toEqual(['bounce', 'complaint']);
    const topic = destination!.Properties.EventDestination.SnsDestination.TopicARN.Ref;
    const toFeedback = subscriptions.filter((s) => s.Properties.TopicArn.Ref === topic && JSON.stringify(s.Properties.Endpoint).includes(feedbackId));
    expect(toFeedback).toHaveLength(1);
    expect(toFeedback[0]!.Properties.Protocol).toBe('lambda');
  });

  it('lets the mail senders (send-mail and the outbox sweeper) alone send, on the identity and the configuration set only, from our own address', () => {
    // Prepare
    const senders = [stack.streamFunctions['send-mail']!, stack.recurringFunctions['sweep-mail-outbox']!];
    const others = [
      ...Object.values(stack.functions),
      ...Object.values(stack.streamFunctions),
      ...Object.values(stack.socketFunctions),
      ...Object.values(stack.timerFunctions ?? {}),
      ...Object.values(stack.recurringFunctions),
    ].filter((fn) => !senders.includes(fn));

    for (const sender of senders) {
      // Act
      const sends = statementsOf(sender).filter((s) => actionsOf(s).some((a) => a.startsWith('ses:')));

      // Assess
      expect(sends).toHaveLength(1);
      expect(actionsOf(sends[0]!)).toEqual(['ses:SendEmail']);
      const resources = JSON.stringify(sends[0]!.Resource);
      expect(resources).toContain(`":identity/",{"Ref":"${stack.getLogicalId(stack.mail!.identity.node.defaultChild as never)}"}`);
      expect(resources).toContain(':configuration-set/Marketplace-prod-mail');
      expect(resources).not.toContain('*');
      expect(sends[0]!.Condition).toEqual({ StringEquals: { 'ses:FromAddress': 'no-reply@fixly.app' } });
    }
    expect(others.filter((fn) => statementsOf(fn).some((s) => actionsOf(s).some((a) => a.startsWith('ses:'))))).toEqual([]);
  });

  it('tells the mail senders who mail is from, the configuration set and the site its links open', () => {
    for (const sender of [stack.streamFunctions['send-mail']!, stack.recurringFunctions['sweep-mail-outbox']!]) {
      // Act
      const variables = environmentOf(sender);

      // Assess
      expect(variables).toMatchObject({ MAIL_FROM: 'Fixly <no-reply@fixly.app>', SES_CONFIGURATION_SET: 'Marketplace-prod-mail' });
      expect(JSON.stringify(variables.SITE_URL)).toContain('https://');
    }
  });

  it('sweeps the outbox every 2 minutes, through a schedule whose input is the sweeper\'s sample event', () => {
    // Prepare
    const fnId = stack.getLogicalId(stack.recurringFunctions['sweep-mail-outbox']!.node.defaultChild as CfnFunction);

    // Act
    const schedules = Object.values(template.findResources('AWS::Scheduler::Schedule')) as { Properties: { Name: string; ScheduleExpression: string; Target: { Arn: unknown; Input: string } } }[];
    const schedule = schedules.find((s) => s.Properties.Name === 'Marketplace-prod-sweep-mail-outbox');

    // Assess
    expect(schedule?.Properties.ScheduleExpression).toBe('cron(0/2 * * * ? *)');
    expect(schedule?.Properties.Target.Arn).toEqual({ 'Fn::GetAtt': [fnId, 'Arn'] });
    expect(JSON.parse(schedule!.Properties.Target.Input)).toEqual({ source: 'aws.scheduler', schedule: 'sweep-mail-outbox' });
  });

  it('lets the sweeper Query the index of unsent mail under its own keys, and never Scan', () => {
    // Act
    const onTable = statementsOf(stack.recurringFunctions['sweep-mail-outbox']!).filter((s) => actionsOf(s).some((a) => a.startsWith('dynamodb:')));

    // Assess: reads and writes of the outbox and the marks; Query alone on the index, under its keys.
    const onIndex = onTable.filter((s) => JSON.stringify(s.Resource).includes('/index/*'));
    const onItems = onTable.filter((s) => !onIndex.includes(s));
    expect(onIndex).toHaveLength(1);
    expect(actionsOf(onIndex[0]!)).toEqual(['dynamodb:Query']);
    expect(onIndex[0]!.Condition).toMatchObject({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['MAILQ*'] } });
    expect(onItems.flatMap(actionsOf)).toEqual(expect.arrayContaining(['dynamodb:Query', 'dynamodb:UpdateItem', 'dynamodb:GetItem']));
    expect(onTable.flatMap(actionsOf)).not.toContain('dynamodb:Scan');
    for (const s of onItems) expect(s.Condition).toMatchObject({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['MAIL#*', 'MAIL_SUPPRESSED#*'] } });
  });

  it('limits the sender and the feedback function to the outbox and the suppression marks in the table, the feedback function to writing them', () => {
    // Act
    const leadingKeys = (fn: NodejsFunction) =>
      statementsOf(fn)
        .filter((s) => actionsOf(s).some((a) => a === 'dynamodb:PutItem' || a === 'dynamodb:GetItem'))
        .map((s) => JSON.stringify(s.Condition ?? null));

    // Assess
    expect(leadingKeys(stack.streamFunctions['send-mail']!).every((c) => c.includes('MAIL#*') && c.includes('MAIL_SUPPRESSED#*'))).toBe(true);
    // Its access is write: the mail repository's keys (functions/mail/data/mail.ts), for writes alone.
    expect(leadingKeys(stack.mailFeedbackFunction!)).toEqual([expect.stringContaining('MAIL_SUPPRESSED#*')]);
    expect(statementsOf(stack.mailFeedbackFunction!).flatMap(actionsOf)).not.toContain('dynamodb:GetItem');
  });

  it('alarms on an error or a throttle of the bounce and complaint recorder, as on every other function', () => {
    // Prepare
    const feedbackId = stack.getLogicalId(stack.mailFeedbackFunction!.node.defaultChild as CfnFunction);
    const alarms = Object.entries(template.findResources('AWS::CloudWatch::Alarm')) as [string, { Properties: { Metrics?: { MetricStat?: { Metric: { MetricName: string; Dimensions: { Value: { Ref?: string } }[] } } }[] } }][];

    // Act
    const watching = (prefix: string, metricName: string) =>
      alarms.filter(
        ([id, alarm]) =>
          id.includes(prefix) &&
          (alarm.Properties.Metrics ?? []).some((m) => m.MetricStat?.Metric.MetricName === metricName && m.MetricStat.Metric.Dimensions[0]?.Value.Ref === feedbackId),
      );

    // Assess
    expect(watching('LambdaErrors', 'Errors')).toHaveLength(1);
    expect(watching('LambdaThrottles', 'Throttles')).toHaveLength(1);
  });

  it('leaves no AwsSolutions finding unacknowledged with mail on (the synth of a deploy would stop)', () => {
    // Act
    const findings = unacknowledgedNagFindings(stack);

    // Assess
    expect(findings).toEqual([]);
  });

  it('makes no mail identity without a mail domain, and leaves the sender unable to send', () => {
    // Act
    const plain = synth();

    // Assess
    plain.template.resourceCountIs('AWS::SES::EmailIdentity', 0);
    plain.template.resourceCountIs('AWS::SES::ConfigurationSet', 0);
    expect(plain.stack.mail).toBeUndefined();
  });

  it("writes the DKIM records into the site's zone when the mail domain is in it, and leaves them to the operator otherwise", () => {
    // Prepare
    const zoneId = 'Z0123456789ABCDEFGHIJ';

    // Act
    const inZone = synth({ stage: 'zoned', domainName: 'fixly.app', hostedZoneId: zoneId, mailDomain: 'mail.fixly.app' });
    const elsewhere = synth({ stage: 'apart', domainName: 'fixly.app', hostedZoneId: zoneId, mailDomain: 'fixly-mail.com' });

    // Assess
    const cnames = Object.values(inZone.template.findResources('AWS::Route53::RecordSet', { Properties: { Type: 'CNAME' } })) as { Properties: { Name: unknown; HostedZoneId: unknown; ResourceRecords: unknown[] } }[];
    expect(cnames).toHaveLength(3);
    for (const [i, cname] of cnames.entries()) {
      expect(cname.Properties.HostedZoneId).toBe(zoneId);
      expect(JSON.stringify(cname.Properties.Name)).toContain(`DkimDNSTokenName${i + 1}`);
      expect(JSON.stringify(cname.Properties.ResourceRecords)).toContain(`DkimDNSTokenValue${i + 1}`);
    }
    elsewhere.template.resourcePropertiesCountIs('AWS::Route53::RecordSet', { Type: 'CNAME' }, 0);
  });

  it('refuses a mail domain that is no domain', () => {
    // Act + Assess
    expect(() => synth({ stage: 'bad', mailDomain: 'not a domain' })).toThrow(/mailDomain must be a domain name/);
  });
});
