import { Aws, CfnRule, Fn } from 'aws-cdk-lib';
import { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';

export interface EdgeFirewallProps {
  /** Writes (POST, PUT, DELETE under /api/) one address may send in 5 minutes before WAF answers 429. */
  writesPerFiveMinutes: number;
}

const tooMany = JSON.stringify({
  error: 'TooManyRequestsError',
  message: 'Too many requests from this connection in a short time. Please wait a few minutes and try again.',
});

const api = {
  byteMatchStatement: {
    fieldToMatch: { uriPath: {} },
    positionalConstraint: 'STARTS_WITH',
    searchString: '/api/',
    textTransformations: [{ priority: 0, type: 'NONE' }],
  },
};

const method = (name: string) => ({
  byteMatchStatement: {
    fieldToMatch: { method: {} },
    positionalConstraint: 'EXACTLY',
    searchString: name,
    textTransformations: [{ priority: 0, type: 'NONE' }],
  },
});

const blockWith429 = {
  block: {
    customResponse: {
      responseCode: 429,
      customResponseBodyKey: 'too-many',
      responseHeaders: [{ name: 'retry-after', value: '300' }],
    },
  },
};

const visibility = (metricName: string) => ({ cloudWatchMetricsEnabled: true, sampledRequestsEnabled: true, metricName });

/**
 * AWS WAF in front of CloudFront, for the operator who turns it on: rate-based rules per client
 * address, counted at the edge before a request costs a Lambda. The functions' own limits still
 * apply behind it (they count per customer too, which WAF cannot see); WAF takes the floods.
 * A CloudFront web ACL exists only in us-east-1, so the stack then asserts its region at deploy.
 */
export class EdgeFirewall extends Construct {
  readonly webAclArn: string;

  constructor(scope: Construct, id: string, props: EdgeFirewallProps) {
    super(scope, id);
    const writes = props.writesPerFiveMinutes;
    const acl = new CfnWebACL(this, 'WebAcl', {
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      visibilityConfig: visibility('marketplace-edge'),
      customResponseBodies: { 'too-many': { contentType: 'APPLICATION_JSON', content: tooMany } },
      rules: [
        {
          name: 'api-writes-per-address',
          priority: 0,
          action: blockWith429,
          visibilityConfig: visibility('api-writes-per-address'),
          statement: {
            rateBasedStatement: {
              limit: writes,
              evaluationWindowSec: 300,
              aggregateKeyType: 'IP',
              scopeDownStatement: {
                andStatement: { statements: [api, { orStatement: { statements: [method('POST'), method('PUT'), method('DELETE')] } }] },
              },
            },
          },
        },
        {
          // Reads are cheap and polled by open screens: ten times the writes.
          name: 'api-per-address',
          priority: 1,
          action: blockWith429,
          visibilityConfig: visibility('api-per-address'),
          statement: { rateBasedStatement: { limit: writes * 10, evaluationWindowSec: 300, aggregateKeyType: 'IP', scopeDownStatement: api } },
        },
      ],
    });
    new CfnRule(this, 'InUsEast1', {
      assertions: [
        {
          assert: Fn.conditionEquals(Aws.REGION, 'us-east-1'),
          assertDescription: 'With WAF on (context wafRateLimit), deploy this stack to us-east-1: CloudFront web ACLs exist only there.',
        },
      ],
    });
    this.webAclArn = acl.attrArn;
  }
}
