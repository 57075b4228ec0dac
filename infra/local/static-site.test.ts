import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMMUTABLE_CACHE_CONTROL, REVALIDATE_CACHE_CONTROL } from '../site-cache';
import { staticSite } from './static-site';

/**
 * The production build served as CloudFront serves it, as far as a release changing under an open
 * tab goes: the Cache-Control each file gets, and a chunk that is gone answering 404, not the app.
 */
describe('the local static site (a web build, as the cloud serves it)', () => {
  // The build sits under a folder called "assets" itself: only the path inside the build may count.
  const parent = mkdtempSync(path.join(tmpdir(), 'static-site-'));
  const dist = path.join(parent, 'assets', 'dist');
  let server: Server;
  let base: string;

  beforeAll(async () => {
    // Prepare (shared): a small build with each kind of file
    mkdirSync(path.join(dist, 'assets'), { recursive: true });
    mkdirSync(path.join(dist, 'pages'), { recursive: true });
    mkdirSync(path.join(dist, 'icons'), { recursive: true });
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>shell</title>');
    writeFileSync(path.join(dist, 'pages', 'home.html'), '<!doctype html><title>home</title>');
    writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
    writeFileSync(path.join(dist, 'assets', 'index-abc123.css'), 'body{}');
    writeFileSync(path.join(dist, 'sw.js'), 'self.addEventListener("fetch", () => {})');
    writeFileSync(path.join(dist, 'manifest.webmanifest'), '{}');
    writeFileSync(path.join(dist, 'icons', 'icon-192.png'), 'png');
    server = createServer(staticSite(dist));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    rmSync(parent, { recursive: true, force: true });
  });

  const get = async (urlPath: string) => {
    const res = await fetch(`${base}${urlPath}`);
    return { status: res.status, cacheControl: res.headers.get('cache-control'), type: res.headers.get('content-type'), body: await res.text() };
  };

  it('keeps content-hashed assets for a year, immutable', async () => {
    // Act
    const script = await get('/assets/index-abc123.js');
    const style = await get('/assets/index-abc123.css');

    // Assess
    expect(script).toMatchObject({ status: 200, cacheControl: IMMUTABLE_CACHE_CONTROL, type: 'text/javascript; charset=utf-8' });
    expect(style).toMatchObject({ status: 200, cacheControl: IMMUTABLE_CACHE_CONTROL });
  });

  it('has the browser revalidate the HTML, the service worker, the manifest and other files that keep their names', async () => {
    // Act
    const answers = await Promise.all(['/', '/worker/dashboard', '/index.html', '/sw.js', '/manifest.webmanifest', '/icons/icon-192.png'].map(get));

    // Assess
    expect(answers.map((a) => [a.status, a.cacheControl])).toEqual(answers.map(() => [200, REVALIDATE_CACHE_CONTROL]));
    expect(answers[0]!.body).toContain('<title>home</title>');
    expect(answers[1]!.body).toContain('<title>shell</title>');
  });

  it('answers a chunk or stylesheet that is not in the build with a 404, never the app shell', async () => {
    // Act
    const gone = await get('/assets/contact-page-GONE1234.js');
    const goneStyle = await get('/assets/live-map-GONE.css');
    const goneNoExtension = await get('/assets/something');

    // Assess
    for (const answer of [gone, goneStyle, goneNoExtension]) {
      expect(answer).toMatchObject({ status: 404, type: 'text/plain', cacheControl: REVALIDATE_CACHE_CONTROL });
      expect(answer.body).not.toContain('<!doctype html>');
    }
  });
});
