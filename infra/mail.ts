import { ArnFormat, CfnOutput, Stack } from 'aws-cdk-lib';
import { Effect, PolicyStatement, ServicePrincipal, type IGrantable } from 'aws-cdk-lib/aws-iam';
import { CnameRecord, HostedZone } from 'aws-cdk-lib/aws-route53';
import {
  ConfigurationSet,
  ConfigurationSetEventDestination,
  DkimIdentity,
  EasyDkimSigningKeyLength,
  EmailIdentity,
  EmailSendingEvent,
  EventDestination,
  Identity,
  SuppressionReasons,
} from 'aws-cdk-lib/aws-ses';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';

export interface MailSendingProps {
  /** The domain mail is sent from (its SES identity): the site's own name unless the operator names another. */
  domainName: string;
  /** The name of the configuration set every mail is sent through. */
  configurationSetName: string;
  /**
   * The site's Route 53 zone, when the stack has one: if the sending domain is in it, the DKIM
   * records are published there, and SES verifies the domain without the operator touching DNS.
   */
  hostedZone?: { id: string; name: string };
}

/** A sending domain SES would take: dotted labels of letters, digits and hyphens. */
const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/**
 * What the product's mail needs in SES: the sending domain as an identity signed with Easy DKIM
 * (its three CNAMEs are written into the site's Route 53 zone when the domain is in it; otherwise
 * the operator publishes them: the stack outputs them, the runbook says how), a
 * configuration set every mail goes through, whose bounces and complaints go to an SNS topic (the
 * stack subscribes the function that marks those addresses so they are not mailed again), and the
 * one right to send, ses:SendEmail, on that identity and that configuration set only, from the
 * product's own address.
 */
export class MailSending extends Construct {
  readonly identity: EmailIdentity;
  readonly configurationSet: ConfigurationSet;
  /** Bounces and complaints, as SES publishes them. */
  readonly feedbackTopic: Topic;
  /** Who mail is from: `Fixly <no-reply@<domain>>`. */
  readonly from: string;
  readonly fromAddress: string;
  private readonly configurationSetArn: string;
  private readonly configurationSetName: string;

  constructor(scope: Construct, id: string, props: MailSendingProps) {
    super(scope, id);
    const domainName = props.domainName.trim().toLowerCase();
    if (!DOMAIN.test(domainName)) throw new Error(`mailDomain must be a domain name such as fixly.app, got ${JSON.stringify(props.domainName)}`);
    this.fromAddress = `no-reply@${domainName}`;
    this.configurationSetName = props.configurationSetName;
    this.from = `Fixly <${this.fromAddress}>`;

    this.configurationSet = new ConfigurationSet(this, 'ConfigurationSet', {
      configurationSetName: props.configurationSetName,
      // The account's suppression list also keeps these addresses: SES itself drops a send to them.
      suppressionReasons: SuppressionReasons.BOUNCES_AND_COMPLAINTS,
      reputationMetrics: true,
      sendingEnabled: true,
    });
    this.identity = new EmailIdentity(this, 'Identity', {
      identity: Identity.domain(domainName),
      dkimIdentity: DkimIdentity.easyDkim(EasyDkimSigningKeyLength.RSA_2048_BIT),
      dkimSigning: true,
      configurationSet: this.configurationSet,
      feedbackForwarding: false,
    });
    this.feedbackTopic = new Topic(this, 'Feedback', { displayName: 'SES bounces and complaints', enforceSSL: true });
    new ConfigurationSetEventDestination(this, 'BouncesAndComplaints', {
      configurationSet: this.configurationSet,
      destination: EventDestination.snsTopic(this.feedbackTopic),
      events: [EmailSendingEvent.BOUNCE, EmailSendingEvent.COMPLAINT],
    });
    const stack = Stack.of(this);
    // SES publishes to the topic only for this account's configuration set.
    this.feedbackTopic.addToResourcePolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        principals: [new ServicePrincipal('ses.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.feedbackTopic.topicArn],
        conditions: { StringEquals: { 'AWS:SourceAccount': stack.account } },
      }),
    );
    this.configurationSetArn = stack.formatArn({
      service: 'ses',
      resource: 'configuration-set',
      resourceName: props.configurationSetName,
      arnFormat: ArnFormat.SLASH_RESOURCE_NAME,
    });

    // The DKIM records: written into the zone when the domain is in it; otherwise the operator
    // publishes them where the domain's DNS is (the runbook's first SES step).
    const zoneName = props.hostedZone?.name.trim().toLowerCase().replace(/\.$/, '');
    if (props.hostedZone && zoneName && (domainName === zoneName || domainName.endsWith(`.${zoneName}`))) {
      const zone = HostedZone.fromHostedZoneAttributes(this, 'Zone', { hostedZoneId: props.hostedZone.id, zoneName });
      for (const n of [1, 2, 3] as const) {
        new CnameRecord(this, `DkimCname${n}`, {
          zone,
          recordName: this.identity[`dkimDnsTokenName${n}`],
          domainName: this.identity[`dkimDnsTokenValue${n}`],
        });
      }
    }
    for (const n of [1, 2, 3] as const) {
      new CfnOutput(this, `DkimRecord${n}`, {
        description: `DKIM CNAME ${n} of ${domainName}: publish it so SES verifies the domain`,
        value: `${this.identity[`dkimDnsTokenName${n}`]} CNAME ${this.identity[`dkimDnsTokenValue${n}`]}`,
      });
    }
  }

  /** What the mail sender is told: who mail is from and the configuration set. */
  get environment(): Record<string, string> {
    return { MAIL_FROM: this.from, SES_CONFIGURATION_SET: this.configurationSetName };
  }

  /** ses:SendEmail on this identity and configuration set only, from the product's own address. */
  grantSend(grantee: IGrantable): void {
    grantee.grantPrincipal.addToPrincipalPolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ['ses:SendEmail'],
        resources: [this.identity.emailIdentityArn, this.configurationSetArn],
        conditions: { StringEquals: { 'ses:FromAddress': this.fromAddress } },
      }),
    );
  }
}
