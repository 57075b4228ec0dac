import { Aws, CfnRule, Fn, Stack, Token } from 'aws-cdk-lib';
import { Certificate, CertificateValidation, type ICertificate } from 'aws-cdk-lib/aws-certificatemanager';
import type { IDistribution } from 'aws-cdk-lib/aws-cloudfront';
import { AaaaRecord, ARecord, HostedZone, RecordTarget, type IHostedZone } from 'aws-cdk-lib/aws-route53';
import { CloudFrontTarget } from 'aws-cdk-lib/aws-route53-targets';
import { Construct } from 'constructs';

/** The only region CloudFront takes a certificate from. */
export const CLOUDFRONT_CERTIFICATE_REGION = 'us-east-1';

/** What the operator gives (props, else context keys of the same names), unchecked. */
export interface SiteDomainInput {
  /** The name the site answers on, e.g. fixly.app (context "domainName"). */
  domainName?: unknown;
  /** The Route 53 hosted zone holding it (context "hostedZoneId"): the stack validates the certificate and writes the A/AAAA records there. */
  hostedZoneId?: unknown;
  /** That zone's name (context "hostedZoneName"); default: domainName itself. */
  hostedZoneName?: unknown;
  /** An ACM certificate in us-east-1 covering domainName (context "certificateArn"), instead of one made here. */
  certificateArn?: unknown;
}

/** The checked settings: a domain, with a zone, a certificate, or both. */
export interface SiteDomainSettings {
  domainName: string;
  hostedZone?: { id: string; name: string };
  certificateArn?: string;
}

const hostName = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;
const zoneId = /^[A-Z0-9]{1,32}$/;
const certificateArnPattern = /^arn:aws[a-z-]*:acm:([a-z0-9-]+):\d{12}:certificate\/[A-Za-z0-9-]+$/;

const given = (value: unknown): string | undefined => (value === undefined || value === null || value === '' ? undefined : String(value));

/**
 * Checks the domain settings, so that a wrong value stops the synth with what to do rather than a
 * failed deploy. `region` is the stack's (a token when the stack is environment-agnostic: the
 * region check then happens at deploy, see SiteDomain). Undefined when no domain is asked for.
 */
export function siteDomainSettings(input: SiteDomainInput, region: string): SiteDomainSettings | undefined {
  const domainName = given(input.domainName);
  const hostedZoneId = given(input.hostedZoneId);
  const hostedZoneName = given(input.hostedZoneName);
  const certificateArn = given(input.certificateArn);
  if (domainName === undefined) {
    const stray = Object.entries({ hostedZoneId, hostedZoneName, certificateArn }).filter(([, value]) => value !== undefined);
    if (stray.length) {
      throw new Error(`${stray.map(([key]) => key).join(' and ')} need domainName: the name the site answers on, e.g. -c domainName=fixly.app`);
    }
    return undefined;
  }
  if (!hostName.test(domainName)) {
    throw new Error(`domainName must be a host name such as fixly.app or www.fixly.app (lowercase, no scheme, port or path), got ${JSON.stringify(domainName)}`);
  }
  if (hostedZoneId === undefined && certificateArn === undefined) {
    throw new Error(
      `domainName ${domainName} needs hostedZoneId (the Route 53 zone of the domain: the stack then makes the certificate and the A/AAAA records) ` +
        'or certificateArn (an ACM certificate in us-east-1 that covers it; you then point the name at the DistributionDomainName output yourself)',
    );
  }
  if (hostedZoneId === undefined && hostedZoneName !== undefined) {
    throw new Error('hostedZoneName needs hostedZoneId: the id of that Route 53 zone (Z...), from `aws route53 list-hosted-zones`');
  }
  let hostedZone: SiteDomainSettings['hostedZone'];
  if (hostedZoneId !== undefined) {
    if (!zoneId.test(hostedZoneId)) {
      throw new Error(`hostedZoneId must be a Route 53 hosted zone id such as Z0123456789ABCDEFGHIJ (capital letters and digits), got ${JSON.stringify(hostedZoneId)}`);
    }
    const name = hostedZoneName ?? domainName;
    if (!hostName.test(name)) throw new Error(`hostedZoneName must be a domain name such as fixly.app, got ${JSON.stringify(name)}`);
    if (domainName !== name && !domainName.endsWith(`.${name}`)) {
      throw new Error(`domainName ${domainName} is not in the hosted zone ${name}: give the zone the name belongs to (hostedZoneId and hostedZoneName)`);
    }
    hostedZone = { id: hostedZoneId, name };
  }
  if (certificateArn !== undefined) {
    const match = certificateArnPattern.exec(certificateArn);
    if (!match) {
      throw new Error(`certificateArn must be an ACM certificate ARN (arn:aws:acm:us-east-1:<account>:certificate/<id>), got ${JSON.stringify(certificateArn)}`);
    }
    if (match[1] !== CLOUDFRONT_CERTIFICATE_REGION) {
      throw new Error(
        `certificateArn is in ${match[1]}, but CloudFront only takes certificates from ${CLOUDFRONT_CERTIFICATE_REGION}: ` +
          `request one for ${domainName} there (aws acm request-certificate --region us-east-1 ...)`,
      );
    }
  } else if (!Token.isUnresolved(region) && region !== CLOUDFRONT_CERTIFICATE_REGION) {
    throw new Error(
      `The site's certificate must be in ${CLOUDFRONT_CERTIFICATE_REGION} (CloudFront takes certificates only from there) and this stack is in ${region}: ` +
        `request a certificate for ${domainName} in us-east-1 and pass -c certificateArn=arn:aws:acm:us-east-1:...`,
    );
  }
  return { domainName, ...(hostedZone ? { hostedZone } : {}), ...(certificateArn ? { certificateArn } : {}) };
}

/**
 * The site's own name: its certificate (the one given, or one made here and validated by DNS in the
 * zone) and, with a zone, the A and AAAA alias records pointing the name at the distribution.
 */
export class SiteDomain extends Construct {
  readonly domainName: string;
  readonly certificate: ICertificate;
  readonly zone?: IHostedZone;

  constructor(scope: Construct, id: string, settings: SiteDomainSettings) {
    super(scope, id);
    this.domainName = settings.domainName;
    if (settings.hostedZone) {
      this.zone = HostedZone.fromHostedZoneAttributes(this, 'Zone', { hostedZoneId: settings.hostedZone.id, zoneName: settings.hostedZone.name });
    }
    if (settings.certificateArn) {
      this.certificate = Certificate.fromCertificateArn(this, 'Certificate', settings.certificateArn);
    } else {
      // siteDomainSettings refused a known region other than us-east-1; an unknown one is checked
      // by CloudFormation before it changes anything.
      this.certificate = new Certificate(this, 'Certificate', {
        domainName: settings.domainName,
        validation: CertificateValidation.fromDns(this.zone),
      });
      if (Token.isUnresolved(Stack.of(this).region)) {
        new CfnRule(this, 'CertificateInUsEast1', {
          assertions: [
            {
              assert: Fn.conditionEquals(Aws.REGION, CLOUDFRONT_CERTIFICATE_REGION),
              assertDescription:
                `With domainName and no certificateArn, deploy this stack to ${CLOUDFRONT_CERTIFICATE_REGION}, where CloudFront takes its certificate from; ` +
                'elsewhere, request the certificate in us-east-1 and pass -c certificateArn=...',
            },
          ],
        });
      }
    }
  }

  /** Points the name at the distribution (A and AAAA aliases), when the stack has the zone. */
  pointAt(distribution: IDistribution): void {
    if (!this.zone) return;
    const target = RecordTarget.fromAlias(new CloudFrontTarget(distribution));
    new ARecord(this, 'AliasA', { zone: this.zone, recordName: this.domainName, target });
    new AaaaRecord(this, 'AliasAAAA', { zone: this.zone, recordName: this.domainName, target });
  }
}
