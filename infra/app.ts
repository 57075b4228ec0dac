import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { App, Tags, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { assertDeployableStage, MarketplaceStack } from './marketplace-stack';

/**
 * CDK entry (cdk.json: "npx tsx infra/app.ts"). Environment-agnostic: no account or region
 * lookups, so `cdk synth` works offline with no credentials.
 *
 * Context: stage (default prod), platformFeePercent (default 10, 0..100), supportEmail,
 * webAssetPath (default web/dist, relative to the repository root); and, read by the stack itself,
 * offerSeconds, offersAtOnce, maxOffers, arrivalGraceSeconds (dispatch), geocoderUrl,
 * stripeSecretName, vapidSecretName, publicUrl, alarmEmail, tracing, wafRateLimit and webAclArn.
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

const stack = new MarketplaceStack(app, `Marketplace-${stage}`, {
  description: `Home-services marketplace (${stage})`,
  stage,
  platformFeePercent,
  supportEmail,
  webAssetPath,
});
Tags.of(stack).add('app', 'home-services-marketplace');
Tags.of(stack).add('stage', stage);
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));

app.synth();
