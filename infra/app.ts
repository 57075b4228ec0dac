import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { App, Tags, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { UNTAGGED_RESOURCE_TYPES } from './dashboard';
import { assertDeployableStage, MarketplaceStack } from './marketplace-stack';

/**
 * CDK entry (cdk.json: "npx tsx infra/app.ts"). Environment-agnostic: no account or region
 * lookups, so `cdk synth` works offline with no credentials.
 *
 * Context (README "Deploying" has the table): stage (default prod), platformFeePercent (default
 * 10, 0..100), supportEmail, webAssetPath (default web/dist, relative to the repository root); and,
 * read by the stack itself: offerSeconds, offersAtOnce, maxOffers, arrivalGraceSeconds (dispatch),
 * distanceUnit, geocoder, geocoderUrl, stripeSecretName, vapidSecretName, publicUrl (default
 * https://<domainName> when there is one), alarmEmail, tracing, detailedMetrics (true/false, default
 * false: the HTTP API's per-route metrics, billed as custom metrics), wafRateLimit, webAclArn,
 * originSecretRevision, tableName and tableStreamArn (an adopted table); and the site's own name
 * (infra/domain.ts): domainName with hostedZoneId (and hostedZoneName, default the domain itself),
 * or domainName with certificateArn (a certificate in us-east-1, for a stack in any region).
 * Every value is checked at synth, which stops with what to do.
 *
 * cdk-nag's AwsSolutions pack checks every synth: a finding that infra/nag.ts does not acknowledge
 * (with its reason) stops `cdk synth` and `cdk deploy` and is listed by the CLI.
 */
const repoRoot = fileURLToPath(new URL('..', import.meta.url));

function fail(message: string): never {
  console.error(`infra/app.ts: ${message}`);
  process.exit(1);
}

const app = new App();
const context = (key: string): unknown => app.node.tryGetContext(key);

const stage = String(context('stage') ?? 'prod');
if (!/^[a-z][a-z0-9-]{0,30}$/.test(stage)) {
  fail(`context "stage" must be lowercase letters, digits and dashes (e.g. prod, dev), got "${stage}"`);
}
try {
  assertDeployableStage(stage);
} catch (error) {
  fail(`context ${(error as Error).message}`);
}

const rawFee = context('platformFeePercent') ?? 10;
const platformFeePercent = typeof rawFee === 'number' ? rawFee : Number(String(rawFee).trim() || NaN);
if (!Number.isFinite(platformFeePercent) || platformFeePercent < 0 || platformFeePercent > 100) {
  fail(`context "platformFeePercent" must be a number between 0 and 100, got "${String(rawFee)}"`);
}

const supportEmail = String(context('supportEmail') ?? 'support@fixly.app');
if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(supportEmail)) {
  fail(`context "supportEmail" must be an email address, got "${supportEmail}"`);
}

const rawWebPath = String(context('webAssetPath') ?? 'web/dist');
const webAssetPath = isAbsolute(rawWebPath) ? rawWebPath : resolve(repoRoot, rawWebPath);
if (!existsSync(resolve(webAssetPath, 'index.html'))) {
  fail(
    `no built web app at "${webAssetPath}" (index.html missing): run "npm run build:web" first, ` +
      'or pass another folder with -c webAssetPath=<folder>',
  );
}

// CloudFront takes certificates from us-east-1 only. The stack cannot see its region at synth
// (environment-agnostic), but `cdk deploy` puts it in the CLI's default region, which the CLI passes
// here; the stack's own CloudFormation rule checks again at deploy.
const cliRegion = process.env.CDK_DEFAULT_REGION;
if (context('domainName') !== undefined && context('certificateArn') === undefined && cliRegion && cliRegion !== 'us-east-1') {
  fail(
    `context "domainName" without "certificateArn" makes the site's certificate in this stack, and CloudFront takes ` +
      `certificates only from us-east-1, but this deploy goes to ${cliRegion}: request a certificate for the domain in ` +
      'us-east-1 and pass -c certificateArn=arn:aws:acm:us-east-1:..., or deploy to us-east-1',
  );
}

const stack = new MarketplaceStack(app, `Marketplace-${stage}`, {
  description: `Home-services marketplace (${stage})`,
  stage,
  platformFeePercent,
  supportEmail,
  webAssetPath,
});
const tagged = { excludeResourceTypes: UNTAGGED_RESOURCE_TYPES };
Tags.of(stack).add('app', 'home-services-marketplace', tagged);
Tags.of(stack).add('stage', stage, tagged);
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));

app.synth();
