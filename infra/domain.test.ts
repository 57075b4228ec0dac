import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { deployedRoutes } from '../shared/routes';
import { siteDomainSettings, type SiteDomainInput } from './domain';
import { MarketplaceStack } from './marketplace-stack';
import { unacknowledgedNagFindings } from './nag';
import { testSynth } from './testing/synth';
import { managedRuleGroups, STRIPE_WEBHOOKS_PREFIX } from './waf';

type Resource = { Type: string; Properties: Record<string, any> };

const { synth, cleanup } = testSynth();
// A synth takes up to a minute on a loaded two-core machine.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 180_000 });

const zoneId = 'Z0123456789ABCDEFGHIJ';
const certificateArn = 'arn:aws:acm:us-east-1:123456789012:certificate/0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0';

/** A domain with its Route 53 zone, and WAF on: the stack makes the certificate and the records. */
let withZone: ReturnType<typeof synth>;
/** A stack in eu-west-1 with a certificate made in us-east-1 beforehand, DNS kept elsewhere, and a publicUrl of its own. */
let withCertificate: ReturnType<typeof synth>;
beforeAll(() => {
  withZone = synth({ stage: 'dom', domainName: 'fixly.app', hostedZoneId: zoneId, wafRateLimit: 300 });
  withCertificate = synth({
    stage: 'cert',
    env: { account: '123456789012', region: 'eu-west-1' },
    domainName: 'app.fixly.app',
    certificateArn,
    publicUrl: 'https://www.fixly.app',
  });
});

const contextDirs: string[] = [];
afterAll(() => {
  cleanup();
  contextDirs.forEach((dir) => rmSync(dir, { recursive: true, force: true }));
});

const resourcesOf = (template: Template, type: string) =>
  Object.entries(template.toJSON().Resources as Record<string, Resource>).filter(([, r]) => r.Type === type);
const distributionOf = (template: Template) => resourcesOf(template, 'AWS::CloudFront::Distribution')[0]!;
const uploadsCorsOrigins = (template: Template) =>
  resourcesOf(template, 'AWS::S3::Bucket').flatMap(([, b]) => (b.Properties.CorsConfiguration?.CorsRules ?? []) as { AllowedOrigins: unknown[] }[]).flatMap((r) => r.AllowedOrigins);
const environmentOf = ({ stack, template }: ReturnType<typeof synth>, name: string) => {
  const fn = stack.functions[name]!;
  const resource = (template.toJSON().Resources as Record<string, Resource>)[Stack.of(fn).getLogicalId(fn.node.defaultChild as CfnFunction)]!;
  return resource.Properties.Environment.Variables as Record<string, unknown>;
};
const stripeRoutes = deployedRoutes.filter((r) => r.stripe);

/** The stack built from cdk context, as infra/app.ts builds it (the domain keys are read by the stack). */
function fromContext(context: Record<string, unknown>, region?: string) {
  const cdkContext = (JSON.parse(readFileSync(join(import.meta.dirname, '..', 'cdk.json'), 'utf8')) as { context: Record<string, unknown> }).context;
  const webAssetPath = mkdtempSync(join(tmpdir(), 'marketplace-web-'));
  writeFileSync(join(webAssetPath, 'index.html'), '<!doctype html>');
  const outdir = mkdtempSync(join(tmpdir(), 'marketplace-cdk-'));
  contextDirs.push(webAssetPath, outdir);
  const app = new App({ outdir, context: { ...cdkContext, ...context, 'aws:cdk:bundling-stacks': [] } });
  return new MarketplaceStack(app, 'Marketplace-ctx', {
    stage: 'ctx',
    platformFeePercent: 10,
    supportEmail: 'support@fixly.app',
    webAssetPath,
    ...(region ? { env: { account: '123456789012', region } } : {}),
  });
}

describe('Custom domain: with a Route 53 zone', () => {
  it('answers on the domain with a certificate validated by DNS in the zone, TLS 1.2 at least', () => {
    // Act
    const [, distribution] = distributionOf(withZone.template);
    const [[certificateId, certificate]] = resourcesOf(withZone.template, 'AWS::CertificateManager::Certificate') as [[string, Resource]];
    const config = distribution.Properties.DistributionConfig;

    // Assess
    expect(config.Aliases).toEqual(['fixly.app']);
    expect(config.ViewerCertificate).toEqual({ AcmCertificateArn: { Ref: certificateId }, MinimumProtocolVersion: 'TLSv1.2_2021', SslSupportMethod: 'sni-only' });
    expect(certificate.Properties).toMatchObject({ DomainName: 'fixly.app', ValidationMethod: 'DNS', DomainValidationOptions: [{ DomainName: 'fixly.app', HostedZoneId: zoneId }] });
  });

  it('refuses, at deploy, a region other than us-east-1 for the certificate it makes (the region is unknown at synth)', () => {
    // Act
    const rules = Object.values((withZone.template.toJSON().Rules ?? {}) as Record<string, { Assertions: { Assert: unknown; AssertDescription: string }[] }>);
    const certificateRule = rules.flatMap((r) => r.Assertions).find((a) => a.AssertDescription.includes('domainName'));

    // Assess
    expect(certificateRule?.Assert).toEqual({ 'Fn::Equals': [{ Ref: 'AWS::Region' }, 'us-east-1'] });
  });

  it('points the name at the distribution with A and AAAA alias records in the zone', () => {
    // Prepare
    const [distributionId] = distributionOf(withZone.template);

    // Act: the name's own records (the mail domain's DKIM CNAMEs are in the zone too: infra/mail.test.ts)
    const records = resourcesOf(withZone.template, 'AWS::Route53::RecordSet')
      .map(([, r]) => r.Properties)
      .filter((r) => r.Type !== 'CNAME');

    // Assess
    expect(records.map((r) => r.Type).sort()).toEqual(['A', 'AAAA']);
    for (const record of records) {
      expect(record).toMatchObject({ Name: 'fixly.app.', HostedZoneId: zoneId, AliasTarget: { DNSName: { 'Fn::GetAtt': [distributionId, 'DomainName'] } } });
    }
  });

  it("lets the domain post uploads, gives Stripe's return addresses the domain, and says so in the outputs", () => {
    // Prepare
    const [distributionId] = distributionOf(withZone.template);
    const outputs = withZone.template.toJSON().Outputs as Record<string, { Value: unknown }>;

    // Act
    const origins = uploadsCorsOrigins(withZone.template);

    // Assess
    expect(origins).toHaveLength(2);
    expect(origins).toEqual(expect.arrayContaining(['https://fixly.app', { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distributionId, 'DomainName'] }]] }]));
    for (const route of stripeRoutes) expect(environmentOf(withZone, route.name).PUBLIC_URL, route.name).toBe('https://fixly.app');
    expect(outputs.SiteUrl?.Value).toBe('https://fixly.app');
    expect(outputs.WebSocketUrl?.Value).toBe('wss://fixly.app/ws');
    expect(outputs.DistributionDomainName?.Value).toEqual({ 'Fn::GetAtt': [distributionId, 'DomainName'] });
  });

  it('leaves no AwsSolutions finding unacknowledged (the certificate settles the TLS finding; WAF the web ACL one)', () => {
    expect(unacknowledgedNagFindings(withZone.stack)).toEqual([]);
  });
});

describe('Custom domain: with a certificate made beforehand, in another region', () => {
  it('uses the given us-east-1 certificate from any region, and makes neither a certificate nor records nor a region rule', () => {
    // Act
    const config = distributionOf(withCertificate.template)[1].Properties.DistributionConfig;
    const rules = JSON.stringify(withCertificate.template.toJSON().Rules ?? {});

    // Assess
    expect(config.Aliases).toEqual(['app.fixly.app']);
    expect(config.ViewerCertificate).toMatchObject({ AcmCertificateArn: certificateArn, MinimumProtocolVersion: 'TLSv1.2_2021' });
    expect(resourcesOf(withCertificate.template, 'AWS::CertificateManager::Certificate')).toEqual([]);
    expect(resourcesOf(withCertificate.template, 'AWS::Route53::RecordSet')).toEqual([]);
    expect(rules).not.toContain('domainName');
  });

  it('keeps an explicit publicUrl for Stripe and lets both it and the domain post uploads', () => {
    // Act
    const origins = uploadsCorsOrigins(withCertificate.template);
    const outputs = withCertificate.template.toJSON().Outputs as Record<string, { Value: unknown }>;

    // Assess
    expect(origins).toEqual(expect.arrayContaining(['https://app.fixly.app', 'https://www.fixly.app']));
    expect(origins).toHaveLength(3);
    for (const route of stripeRoutes) expect(environmentOf(withCertificate, route.name).PUBLIC_URL, route.name).toBe('https://www.fixly.app');
    expect(outputs.SiteUrl?.Value).toBe('https://app.fixly.app');
  });

  it('leaves no AwsSolutions finding unacknowledged', () => {
    expect(unacknowledgedNagFindings(withCertificate.stack)).toEqual([]);
  });
});

describe('Custom domain: context values refused with what to do', () => {
  const refusals: [string, SiteDomainInput, string, RegExp][] = [
    ['a zone without a domain', { hostedZoneId: zoneId }, 'us-east-1', /hostedZoneId need domainName/],
    ['a certificate without a domain', { certificateArn }, 'us-east-1', /certificateArn need domainName/],
    ['a URL for a domain', { domainName: 'https://fixly.app', hostedZoneId: zoneId }, 'us-east-1', /domainName must be a host name such as fixly\.app/],
    ['an upper-case domain', { domainName: 'Fixly.App', hostedZoneId: zoneId }, 'us-east-1', /domainName must be a host name/],
    ['a domain with neither zone nor certificate', { domainName: 'fixly.app' }, 'us-east-1', /needs hostedZoneId .* or certificateArn/],
    ['a zone id that is not one', { domainName: 'fixly.app', hostedZoneId: 'fixly-zone' }, 'us-east-1', /hostedZoneId must be a Route 53 hosted zone id/],
    ['a domain outside its zone', { domainName: 'fixly.app', hostedZoneId: zoneId, hostedZoneName: 'example.com' }, 'us-east-1', /fixly\.app is not in the hosted zone example\.com/],
    ['a zone name without a zone id', { domainName: 'fixly.app', certificateArn, hostedZoneName: 'fixly.app' }, 'us-east-1', /hostedZoneName needs hostedZoneId/],
    ['a certificate ARN that is not one', { domainName: 'fixly.app', certificateArn: 'fixly-cert' }, 'eu-west-1', /certificateArn must be an ACM certificate ARN/],
    [
      'a certificate outside us-east-1',
      { domainName: 'fixly.app', certificateArn: certificateArn.replace('us-east-1', 'eu-west-1') },
      'eu-west-1',
      /certificateArn is in eu-west-1, but CloudFront only takes certificates from us-east-1/,
    ],
    ['a certificate to make outside us-east-1', { domainName: 'fixly.app', hostedZoneId: zoneId }, 'eu-west-1', /must be in us-east-1 .* this stack is in eu-west-1: .* -c certificateArn=/],
  ];

  it.each(refusals)('refuses %s', (_case, input, region, message) => {
    expect(() => siteDomainSettings(input, region)).toThrow(message);
  });

  it('accepts a subdomain in its zone, and asks for nothing when no domain is given', () => {
    expect(siteDomainSettings({ domainName: 'app.fixly.app', hostedZoneId: zoneId, hostedZoneName: 'fixly.app' }, 'us-east-1')).toEqual({
      domainName: 'app.fixly.app',
      hostedZone: { id: zoneId, name: 'fixly.app' },
    });
    expect(siteDomainSettings({}, 'eu-west-1')).toBeUndefined();
  });

  it('stops the synth on bad context values, before anything is built', () => {
    expect(() => fromContext({ domainName: 'fixly.app' })).toThrow(/domainName fixly\.app needs hostedZoneId/);
    expect(() => fromContext({ domainName: 'fixly.app', hostedZoneId: zoneId }, 'eu-west-1')).toThrow(/this stack is in eu-west-1/);
    expect(() => fromContext({ hostedZoneId: zoneId })).toThrow(/need domainName/);
  });
});

describe('WAF: AWS managed rule groups behind the rate rules', () => {
  it('blocks with the IP reputation list, known bad inputs and the common rule set, after the 429 rate rules', () => {
    // Act
    const [[, acl]] = resourcesOf(withZone.template, 'AWS::WAFv2::WebACL') as [[string, Resource]];
    const rules = acl.Properties.Rules as any[];

    // Assess
    expect(rules.map((r) => r.Name)).toEqual([
      'api-writes-per-address',
      'api-per-address',
      'AWSManagedRulesAmazonIpReputationList',
      'AWSManagedRulesKnownBadInputsRuleSet',
      'AWSManagedRulesCommonRuleSet',
    ]);
    expect(new Set(rules.map((r) => r.Priority)).size).toBe(rules.length);
    for (const rule of rules.slice(2)) {
      expect(rule.OverrideAction).toEqual({ None: {} });
      expect(rule.Statement.ManagedRuleGroupStatement).toMatchObject({ VendorName: 'AWS', Name: rule.Name });
      expect(rule.VisibilityConfig).toMatchObject({ CloudWatchMetricsEnabled: true, SampledRequestsEnabled: true });
    }
  });

  it("counts, rather than blocks, bodies over 8 KB (the API takes up to 64 KB), and leaves Stripe's signed webhooks to their signature", () => {
    // Act
    const [[, acl]] = resourcesOf(withZone.template, 'AWS::WAFv2::WebACL') as [[string, Resource]];
    const group = (name: string) => (acl.Properties.Rules as any[]).find((r) => r.Name === name).Statement.ManagedRuleGroupStatement;
    const webhookPaths = deployedRoutes.filter((r) => r.path.startsWith(STRIPE_WEBHOOKS_PREFIX));

    // Assess
    expect(group('AWSManagedRulesCommonRuleSet').RuleActionOverrides).toEqual([{ Name: 'SizeRestrictions_BODY', ActionToUse: { Count: {} } }]);
    for (const name of ['AWSManagedRulesCommonRuleSet', 'AWSManagedRulesKnownBadInputsRuleSet']) {
      expect(group(name).ScopeDownStatement.NotStatement.Statement.ByteMatchStatement).toMatchObject({
        FieldToMatch: { UriPath: {} },
        PositionalConstraint: 'STARTS_WITH',
        SearchString: STRIPE_WEBHOOKS_PREFIX,
      });
    }
    expect(group('AWSManagedRulesAmazonIpReputationList').ScopeDownStatement).toBeUndefined();
    // The exception covers Stripe's webhooks and nothing else.
    expect(webhookPaths.length).toBeGreaterThan(0);
    for (const route of webhookPaths) expect(route, route.name).toMatchObject({ method: 'POST', access: 'public', rawBody: true, stripe: true });
    expect(managedRuleGroups.map((g) => g.name)).toEqual((acl.Properties.Rules as any[]).slice(2).map((r) => r.Name));
  });
});
