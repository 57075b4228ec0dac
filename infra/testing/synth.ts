import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
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

  function synth(overrides: Partial<MarketplaceStackProps> = {}) {
    const outdir = mkdtempSync(join(tmpdir(), 'marketplace-cdk-'));
    dirs.push(outdir);
    const app = new App({ outdir, context: { ...cdkContext, 'aws:cdk:bundling-stacks': [] } });
    const props: MarketplaceStackProps = {
      stage: 'prod',
      platformFeePercent: 10,
      supportEmail: 'support@fixly.app',
      webAssetPath,
      ...overrides,
    };
    const stack = new MarketplaceStack(app, `Marketplace-${props.stage}`, props);
    return { stack, template: Template.fromStack(stack) };
  }

  return {
    synth,
    cleanup: () => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })),
  };
}
