import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMMUTABLE_CACHE_CONTROL, REVALIDATE_CACHE_CONTROL } from './site-cache';
import { pagePaths } from './site-deploy';
import { testSynth } from './testing/synth';

/**
 * A release must not break a tab opened on the one before: its lazy chunks stay (hashed assets are
 * never pruned and are cached for good), and the HTML that names the new ones goes out only after
 * them, revalidated by browsers and invalidated in CloudFront.
 */

interface Deployment {
  Properties: {
    Include?: string[];
    Exclude?: string[];
    Prune?: boolean;
    SystemMetadata?: Record<string, string>;
    DistributionId?: unknown;
    DistributionPaths?: string[];
    SourceObjectKeys?: unknown;
    DestinationBucketName?: { Ref?: string };
  };
  DependsOn?: string[] | string;
}

/** A build with every kind of file the web app has: hashed assets, HTML, pages, the service worker, folders. */
function webBuild(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'site-deploy-web-'));
  for (const folder of ['assets', 'pages', 'icons', 'media']) mkdirSync(path.join(dir, folder));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html>');
  writeFileSync(path.join(dir, 'pages', 'home.html'), '<!doctype html>');
  writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), '');
  writeFileSync(path.join(dir, 'assets', 'contact-page-def456.js'), '');
  writeFileSync(path.join(dir, 'sw.js'), '');
  writeFileSync(path.join(dir, 'manifest.webmanifest'), '{}');
  writeFileSync(path.join(dir, 'favicon.svg'), '<svg/>');
  writeFileSync(path.join(dir, 'icons', 'icon-192.png'), '');
  writeFileSync(path.join(dir, 'media', 'background.webm'), '');
  return dir;
}

describe('the site deployment (infra/site-deploy.ts)', () => {
  const synths = testSynth();
  const web = webBuild();
  let template: Template;
  let deployments: Record<string, Deployment>;
  const idOf = (pick: (d: Deployment) => boolean) => Object.entries(deployments).find(([, d]) => pick(d))![0];
  const isAssets = (d: Deployment) => (d.Properties.Include ?? []).includes('assets/*');

  beforeAll(() => {
    // Prepare (shared): one synth of the stack with that build
    template = synths.synth({ webAssetPath: web }).template;
    deployments = template.findResources('Custom::CDKBucketDeployment') as Record<string, Deployment>;
  });

  afterAll(() => {
    synths.cleanup();
    rmSync(web, { recursive: true, force: true });
  });

  it('deploys the build in two parts from the same upload: the hashed assets, and everything else', () => {
    // Act
    const all = Object.values(deployments);
    const assets = all.filter(isAssets);
    const pages = all.filter((d) => !isAssets(d));

    // Assess
    expect(all).toHaveLength(2);
    expect(assets[0]!.Properties).toMatchObject({ Exclude: ['*'], Include: ['assets/*'] });
    expect(pages[0]!.Properties).toMatchObject({ Exclude: ['assets/*'] });
    expect(pages[0]!.Properties.Include).toBeUndefined();
    expect(JSON.stringify(assets[0]!.Properties.SourceObjectKeys)).toBe(JSON.stringify(pages[0]!.Properties.SourceObjectKeys));
  });

  it('uploads hashed assets immutable for a year and never prunes them, so an open tab still finds its chunks', () => {
    // Act
    const assets = deployments[idOf(isAssets)]!.Properties;

    // Assess
    expect(assets.SystemMetadata).toEqual({ 'cache-control': IMMUTABLE_CACHE_CONTROL });
    expect(IMMUTABLE_CACHE_CONTROL).toBe('public, max-age=31536000, immutable');
    expect(assets.Prune).toBe(false);
    // Nothing under assets/ changes, so nothing there is invalidated.
    expect(assets.DistributionId).toBeUndefined();
  });

  it('uploads the HTML, service worker, manifest and other unhashed files as no-cache, pruned, with an invalidation of those paths only', () => {
    // Act
    const pages = deployments[idOf((d) => !isAssets(d))]!.Properties;

    // Assess
    expect(pages.SystemMetadata).toEqual({ 'cache-control': REVALIDATE_CACHE_CONTROL });
    expect(REVALIDATE_CACHE_CONTROL).toBe('no-cache');
    expect(pages.Prune).toBe(true);
    expect(pages.DistributionId).toBeDefined();
    expect(pages.DistributionPaths).toEqual([
      '/',
      '/book',
      '/favicon.svg',
      '/icons/*',
      '/index.html',
      '/manifest.webmanifest',
      '/media/*',
      '/pages/*',
      '/services',
      '/sw.js',
      '/track',
    ]);
    expect(pages.DistributionPaths!.filter((p) => p === '/*' || p.startsWith('/assets'))).toEqual([]);
  });

  it('deploys the HTML only after the assets, so new HTML never names a chunk that is not there yet', () => {
    // Act
    const pagesDependsOn = [deployments[idOf((d) => !isAssets(d))]!.DependsOn ?? []].flat();
    const assetsDependsOn = [deployments[idOf(isAssets)]!.DependsOn ?? []].flat();

    // Assess
    expect(pagesDependsOn).toContain(idOf(isAssets));
    expect(assetsDependsOn).not.toContain(idOf((d) => !isAssets(d)));
  });

  it('has no lifecycle rule on the site bucket that could expire a chunk still in use (S3 counts age from the upload)', () => {
    // Prepare
    type Rule = { Status?: string; Prefix?: string; Filter?: { Prefix?: string }; ExpirationInDays?: number; ExpirationDate?: string };
    const target = deployments[idOf(isAssets)]!.Properties.DestinationBucketName?.Ref;
    const buckets = template.findResources('AWS::S3::Bucket') as Record<string, { Properties: { LifecycleConfiguration?: { Rules: Rule[] } } }>;

    // Act
    const rules = buckets[target ?? '']?.Properties.LifecycleConfiguration?.Rules ?? [];
    const expiringAssets = rules.filter((r) => {
      const prefix = r.Prefix ?? r.Filter?.Prefix ?? '';
      return r.Status !== 'Disabled' && (r.ExpirationInDays !== undefined || r.ExpirationDate !== undefined) && ('assets/'.startsWith(prefix) || prefix.startsWith('assets'));
    });

    // Assess
    expect(buckets[target ?? '']).toBeDefined();
    expect(expiringAssets).toEqual([]);
  });
});

describe('pagePaths', () => {
  it('falls back to one wildcard when the build has more folders than CloudFront takes wildcards for', () => {
    // Prepare
    const dir = mkdtempSync(path.join(tmpdir(), 'site-deploy-many-'));
    for (let i = 0; i < 9; i++) mkdirSync(path.join(dir, `folder${i}`));
    writeFileSync(path.join(dir, 'index.html'), '');

    // Act
    const paths = pagePaths(dir);
    rmSync(dir, { recursive: true, force: true });

    // Assess
    expect(paths).toEqual(['/*']);
  });
});
