/**
 * How long browsers and CloudFront may keep each file of the web build, said once for the cloud
 * (infra/site-deploy.ts sets it on the S3 objects, CloudFront passes it on) and for the local
 * static server (infra/local/static-site.ts).
 *
 * Vite names everything under assets/ after a hash of its content, so a file there never changes:
 * it is kept for a year without asking again. Everything else (index.html, the prerendered pages,
 * the service worker, the manifest, icons) keeps its name across releases, so a browser asks again
 * each time (no-cache: it revalidates, and gets a 304 when nothing changed), and a new release's
 * HTML reaches a person on their next page load.
 */

/** The build's folder of content-hashed files (Vite's assetsDir). */
export const HASHED_ASSETS_DIR = 'assets';

export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';
export const REVALIDATE_CACHE_CONTROL = 'no-cache';

/** Whether a file of the build, by its path from the build's root ("assets/x.js", "/assets/x.js"), is content-hashed. */
export function isHashedAsset(buildPath: string): boolean {
  return buildPath.replace(/\\/g, '/').replace(/^\/+/, '').startsWith(`${HASHED_ASSETS_DIR}/`);
}

/** The Cache-Control of a file of the build, by its path from the build's root. */
export function cacheControlFor(buildPath: string): string {
  return isHashedAsset(buildPath) ? IMMUTABLE_CACHE_CONTROL : REVALIDATE_CACHE_CONTROL;
}
