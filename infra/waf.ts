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

/** Stripe's webhooks (the platform's and Connect's): Stripe's JSON, checked by its signature before anything reads it. */
export const STRIPE_WEBHOOKS_PREFIX = '/api/stripe/';

const notStripeWebhooks = {
  notStatement: {
    statement: {
      byteMatchStatement: {
        fieldToMatch: { uriPath: {} },
        positionalConstraint: 'STARTS_WITH',
        searchString: STRIPE_WEBHOOKS_PREFIX,
        textTransformations: [{ priority: 0, type: 'NONE' }],
      },
    },
  },
};

/**
 * AWS managed rule groups, after the rate rules. A rule a legitimate request of ours would meet is
 * counted (its matches still show in the web ACL's metrics and sampled requests), never blocked.
 */
export const managedRuleGroups = [
  {
    // Addresses Amazon's threat intelligence lists as bots and attackers: nobody we serve.
    name: 'AWSManagedRulesAmazonIpReputationList',
    countOnly: [] as string[],
    exceptStripeWebhooks: false,
  },
  {
    // Log4j, Java deserialisation, localhost Host headers: nothing our routes send. Not on Stripe's
    // webhooks: their bodies carry customers' free text (names, addresses) that we do not choose, and
    // a blocked delivery is a payment never recorded; the signature is their check.
    name: 'AWSManagedRulesKnownBadInputsRuleSet',
    countOnly: [] as string[],
    exceptStripeWebhooks: true,
  },
  {
    // OWASP-style rules (cross-site scripting, path traversal, bad bots, oversize parts), with the
    // same exception for Stripe's webhooks.
    name: 'AWSManagedRulesCommonRuleSet',
    // SizeRestrictions_BODY blocks bodies over 8 KB; the API takes JSON bodies up to 64 KB (the
    // handler stack answers 413 past that, with a message), and a form with long free text or a
    // list of items passes 8 KB legitimately. Uploads go straight to S3 and never meet WAF.
    countOnly: ['SizeRestrictions_BODY'],
    exceptStripeWebhooks: true,
  },
] as const;

/**
 * AWS WAF in front of CloudFront, for the operator who turns it on: rate-based rules per client
 * address, counted at the edge before a request costs a Lambda, then AWS's managed rule groups
 * (managedRuleGroups above). The functions' own limits still apply behind it (they count per
 * customer too, which WAF cannot see); WAF takes the floods. A CloudFront web ACL exists only in
 * us-east-1, so the stack then asserts its region at deploy.
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
        ...rateRules(writes),
        ...managedRuleGroups.map((group, i) => ({
          name: group.name,
          priority: 2 + i,
          overrideAction: { none: {} },
          visibilityConfig: visibility(group.name),
          statement: {
            managedRuleGroupStatement: {
              vendorName: 'AWS',
              name: group.name,
              ...(group.countOnly.length ? { ruleActionOverrides: group.countOnly.map((name) => ({ name, actionToUse: { count: {} } })) } : {}),
              ...(group.exceptStripeWebhooks ? { scopeDownStatement: notStripeWebhooks } : {}),
            },
          },
        })),
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

/** Rate-based rules per client address: first, so a flood costs nothing else and gets its 429. */
function rateRules(writes: number) {
  return [
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
  ];
}
