import { readdirSync } from 'node:fs';
import type { IDistribution } from 'aws-cdk-lib/aws-cloudfront';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { prerenderedPages } from '../web/src/app/prerendered-pages';
import { HASHED_ASSETS_DIR, IMMUTABLE_CACHE_CONTROL, REVALIDATE_CACHE_CONTROL } from './site-cache';

export interface SiteDeploymentProps {
  /** The production build of web/ (index.html, pages/, assets/, sw.js, …). */
  readonly webAssetPath: string;
  readonly bucket: IBucket;
  readonly distribution: IDistribution;
}

/** The BucketDeployment handler unpacks and syncs the whole build; the default 128 MB is too little. */
const DEPLOY_MEMORY_MB = 512;
/** CloudFront's limit on wildcard paths in invalidations in progress is 15; leave room for a second deploy. */
const MAX_WILDCARD_PATHS = 7;

/**
 * The web build into the site bucket, so that a release never breaks a tab opened on the one before.
 *
 * 1. Assets: the content-hashed files under assets/, `public, max-age=31536000, immutable`, never
 *    pruned. A tab opened before a release still loads its lazy chunks after it (a pruned chunk
 *    answers 403 through CloudFront: the screen would not open). They are kept for good: a new
 *    name appears only when its content changed, so a release adds what it changed (the whole build
 *    is 1.5 MB), and an age-based lifecycle rule cannot be used, since S3 counts age from the upload
 *    and would delete chunks still in use (the vendor chunk changes only with an upgrade).
 * 2. Pages: everything else (HTML, the service worker, the manifest, icons), `no-cache`, pruned,
 *    deployed after the assets so new HTML never names a chunk that is not there yet, and
 *    invalidated in CloudFront (those paths only: nothing under assets/ ever changes).
 */
export class SiteDeployment extends Construct {
  readonly assets: BucketDeployment;
  readonly pages: BucketDeployment;
  /** The paths the pages deployment invalidates. */
  readonly invalidatedPaths: string[];

  constructor(scope: Construct, id: string, props: SiteDeploymentProps) {
    super(scope, id);
    const build = Source.asset(props.webAssetPath);

    this.assets = new BucketDeployment(this, 'Assets', {
      sources: [build],
      destinationBucket: props.bucket,
      exclude: ['*'],
      include: [`${HASHED_ASSETS_DIR}/*`],
      prune: false,
      cacheControl: [CacheControl.fromString(IMMUTABLE_CACHE_CONTROL)],
      memoryLimit: DEPLOY_MEMORY_MB,
    });

    this.invalidatedPaths = pagePaths(props.webAssetPath);
    this.pages = new BucketDeployment(this, 'Pages', {
      sources: [build],
      destinationBucket: props.bucket,
      // Excluded files are neither uploaded nor pruned by this deployment: the assets are left alone.
      exclude: [`${HASHED_ASSETS_DIR}/*`],
      prune: true,
      cacheControl: [CacheControl.fromString(REVALIDATE_CACHE_CONTROL)],
      distribution: props.distribution,
      distributionPaths: this.invalidatedPaths,
      memoryLimit: DEPLOY_MEMORY_MB,
    });
    this.pages.node.addDependency(this.assets);
  }
}

/**
 * What a release changes at the edge: every top-level file and folder of the build but assets/,
 * and the addresses of the prerendered pages (CloudFront's viewer-request function serves
 * /services from /pages/services.html; AWS advises invalidating the address asked for as well as
 * the object served). Every other app route is served index.html, which is in the list.
 */
export function pagePaths(webAssetPath: string): string[] {
  const entries = readdirSync(webAssetPath, { withFileTypes: true }).filter((e) => e.name !== HASHED_ASSETS_DIR);
  const files = entries.filter((e) => e.isFile()).map((e) => `/${e.name}`);
  const folders = entries.filter((e) => e.isDirectory()).map((e) => `/${e.name}/*`);
  // More folders than CloudFront takes wildcards for: one wildcard for everything (assets too, harmless).
  if (folders.length > MAX_WILDCARD_PATHS) return ['/*'];
  return [...new Set([...Object.keys(prerenderedPages), ...files, ...folders])].sort();
}
