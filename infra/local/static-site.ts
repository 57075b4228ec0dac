import { existsSync, readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { pageFileFor } from '../../web/src/app/prerendered-pages';
import { cacheControlFor, isHashedAsset } from '../site-cache';

/**
 * The production build of web/ served as CloudFront serves it: a file as it is, an app route's
 * prerendered page or else the empty index.html, compressed text, and the Cache-Control the cloud
 * gives each file (infra/site-cache.ts: hashed assets kept for a year, everything else revalidated).
 * `npm start` (with a build), the browser journeys, the CSP test and the bench all serve it this way.
 */

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.json', '.webmanifest', '.svg', '.txt']);

/**
 * Which file of the build answers a path: the file itself, or for an app route its prerendered page
 * or else index.html (what CloudFront's viewer-request function picks). A path naming a file that
 * is not there (an extension, or under /assets/) is a 404, as in production, not the app's HTML.
 */
export function fileForPath(distDir: string, urlPath: string): string | undefined {
  let clean: string;
  try {
    clean = decodeURIComponent(urlPath.split(/[?#]/)[0]!);
  } catch {
    return undefined;
  }
  const file = path.join(distDir, path.normalize(clean));
  if (!file.startsWith(distDir)) return undefined;
  if (clean !== '/' && existsSync(file) && statSync(file).isFile()) return file;
  // A chunk a new release removed must fail as a script load (the app then offers the new version),
  // never parse the app's HTML as JavaScript.
  if (path.extname(clean) || isHashedAsset(clean)) return undefined;
  const page = path.join(distDir, pageFileFor(clean));
  return existsSync(page) ? page : path.join(distDir, 'index.html');
}

/** A request handler answering from the build in `distDir` (files are read once and kept). */
export function staticSite(distDir: string): (req: IncomingMessage, res: ServerResponse) => void {
  const root = path.resolve(distDir);
  const cache = new Map<string, { plain: Buffer; gzipped?: Buffer }>();
  return (req, res) => {
    const file = fileForPath(root, req.url ?? '/');
    if (!file) return void res.writeHead(404, { 'content-type': 'text/plain', 'cache-control': 'no-cache' }).end('Not found');
    const ext = path.extname(file);
    let entry = cache.get(file);
    if (!entry) cache.set(file, (entry = { plain: readFileSync(file) }));
    const headers: Record<string, string> = {
      'content-type': TYPES[ext] ?? 'application/octet-stream',
      'cache-control': cacheControlFor(path.relative(root, file)),
    };
    let body = entry.plain;
    if (COMPRESSIBLE.has(ext) && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
      body = entry.gzipped ??= gzipSync(entry.plain, { level: 9 });
      headers['content-encoding'] = 'gzip';
      headers.vary = 'accept-encoding';
    }
    res.writeHead(200, { ...headers, 'content-length': String(body.length) }).end(req.method === 'HEAD' ? undefined : body);
  };
}

/**
 * Builds web/ for production into `outDir` (Vite, then the prerender). NODE_ENV is production for
 * the build whatever the caller's (Vitest sets 'test', which would give React's development bundle).
 */
export async function buildWeb(outDir: string): Promise<void> {
  const { build } = await import('vite');
  const before = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      configFile: path.resolve(import.meta.dirname, '../../web/vite.config.ts'),
      logLevel: 'warn',
      build: { outDir, emptyOutDir: true },
    });
  } finally {
    if (before === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = before;
  }
}
