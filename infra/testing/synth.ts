import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, NestedStack, Stack, type CfnResource } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll } from 'vitest';
import { MarketplaceStack, type MarketplaceStackProps } from '../marketplace-stack';

const root = join(import.meta.dirname, '../..');
/** cdk.json's context (feature flags included), so the tests assert the template that ships. */
const cdkContext = (JSON.parse(readFileSync(join(root, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> })
  .context;

/**
 * Synthesizes the stack as `cdk synth` would, but with bundling skipped (no esbuild run) and a
 * one-file web folder, so a synth takes about a second. `cleanup()` removes the ~20 MB per synth.
 */
export function testSynth() {
  const dirs: string[] = [];
  const webAssetPath = mkdtempSync(join(tmpdir(), 'marketplace-web-'));
  writeFileSync(join(webAssetPath, 'index.html'), '<!doctype html>');
  dirs.push(webAssetPath);

  /** `context` is what `cdk synth -c key=value` adds, read by the stack itself. */
  function synth(overrides: Partial<MarketplaceStackProps> = {}, context: Record<string, unknown> = {}) {
    const outdir = mkdtempSync(join(tmpdir(), 'marketplace-cdk-'));
    dirs.push(outdir);
    const app = new App({ outdir, context: { ...cdkContext, ...context, 'aws:cdk:bundling-stacks': [] } });
    const props: MarketplaceStackProps = {
      stage: 'prod',
      platformFeePercent: 10,
      supportEmail: 'support@fixly.app',
      webAssetPath,
      ...overrides,
    };
    const stack = new MarketplaceStack(app, `Marketplace-${props.stage}`, props);
    return { stack, template: Template.fromJSON(flattened(stack)), stackTemplate: Template.fromStack(stack) };
  }

  /**
   * The stack from cdk context alone, as infra/app.ts builds it (`-c tracing=true`, …), with its
   * App, so a test can run the App's validations as `cdk synth` does.
   */
  function synthFromContext(context: Record<string, unknown>) {
    const outdir = mkdtempSync(join(tmpdir(), 'marketplace-cdk-'));
    dirs.push(outdir);
    const app = new App({ outdir, context: { ...cdkContext, ...context, 'aws:cdk:bundling-stacks': [] } });
    const stack = new MarketplaceStack(app, 'Marketplace-prod', { stage: 'prod', platformFeePercent: 10, supportEmail: 'support@fixly.app', webAssetPath });
    return { app, stack };
  }

  return {
    synth,
    synthFromContext,
    cleanup: () => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })),
  };
}

/** A synth takes up to a minute on a loaded two-core machine. */
export const SYNTH_TIMEOUT = 180_000;

/**
 * testSynth for one test file, its output removed when the file ends, plus `devTraced`: another
 * stage with tracing on and an alarm address. That stage is synthesized the first time a test asks
 * for it and shared after, since a synth is the slow part of these tests and only some need it.
 */
export function fileSynths() {
  const { synth, synthFromContext, cleanup } = testSynth();
  afterAll(cleanup);
  let devTracedCache: ReturnType<typeof synth> | undefined;
  const devTraced = () => (devTracedCache ??= synth({ stage: 'dev', tracing: true, alarmEmail: 'ops@example.com' }));
  return { synth, synthFromContext, devTraced };
}

type Json = unknown;
type TemplateJson = { Resources: Record<string, { Type: string; Properties?: Record<string, Json> }>; Outputs?: Record<string, { Value: Json }> } & Record<string, Json>;

/** Replaces every JSON node `match` recognises by what `replace` gives for it, everywhere in `value`. */
function substitute(value: Json, replace: (node: Record<string, Json>) => Json | undefined): Json {
  if (Array.isArray(value)) return value.map((item) => substitute(item, replace));
  if (value && typeof value === 'object') {
    const replaced = replace(value as Record<string, Json>);
    if (replaced !== undefined) return replaced;
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, substitute(item, replace)]));
  }
  return value;
}

/**
 * The whole app as one template: each nested stack's resources set in place of its
 * AWS::CloudFormation::Stack resource, with its parameters replaced by what the parent passes and
 * the parent's reads of its outputs by their values. Assertions then read a function, its role and
 * its environment as if one template held them, which is what CloudFormation deploys in effect;
 * `stackTemplate` (and Template.fromStack of each nested stack) keep the real, separate templates.
 */
export function flattened(stack: Stack): TemplateJson {
  const root = structuredClone(Template.fromStack(stack).toJSON()) as TemplateJson;
  const nestedStacks = stack.node.findAll().filter((c): c is NestedStack => NestedStack.isNestedStack(c) && c.nestedStackParent === stack);
  for (const nested of nestedStacks) {
    const nestedJson = Template.fromStack(nested).toJSON() as TemplateJson;
    const resourceId = stack.getLogicalId(nested.nestedStackResource as CfnResource);
    const parameters = (root.Resources[resourceId]?.Properties?.Parameters ?? {}) as Record<string, Json>;
    const inline = (value: Json) =>
      substitute(value, (node) => {
        const ref = node.Ref;
        return typeof ref === 'string' && ref in parameters && Object.keys(node).length === 1 ? parameters[ref] : undefined;
      });
    for (const [id, resource] of Object.entries(nestedJson.Resources)) {
      if (id in root.Resources) throw new Error(`logical id ${id} is in both ${stack.stackName} and ${nested.node.path}`);
      root.Resources[id] = inline(resource) as TemplateJson['Resources'][string];
    }
    const outputs = Object.fromEntries(Object.entries(nestedJson.Outputs ?? {}).map(([name, output]) => [name, inline(output.Value)]));
    delete root.Resources[resourceId];
    const readOutput = (node: Record<string, Json>) => {
      const getAtt = node['Fn::GetAtt'];
      if (!Array.isArray(getAtt) || getAtt[0] !== resourceId || typeof getAtt[1] !== 'string') return undefined;
      return outputs[getAtt[1].replace(/^Outputs\./, '')];
    };
    for (const [id, resource] of Object.entries(root.Resources)) {
      const { DependsOn, ...rest } = resource as { DependsOn?: string | string[] };
      const dependsOn = [DependsOn ?? []].flat().filter((d) => d !== resourceId);
      root.Resources[id] = { ...(substitute(rest, readOutput) as TemplateJson['Resources'][string]), ...(dependsOn.length ? { DependsOn: dependsOn } : {}) };
    }
    root.Outputs = substitute(root.Outputs ?? {}, readOutput) as TemplateJson['Outputs'];
  }
  return root;
}
