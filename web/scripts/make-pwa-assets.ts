/**
 * Makes the app's icons and the background video's poster, committed under web/public (run again
 * only when the mark or the video changes): `npx tsx web/scripts/make-pwa-assets.ts`.
 * A Chromium (CHROMIUM_PATH, the system's, or the packaged one: infra/testing/chromium.ts) renders the SVG mark to PNG and takes a frame of the video as WebP.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { browserEnv, resolveChromium } from '../../infra/testing/chromium';

const publicDir = path.resolve(import.meta.dirname, '../public');
const SLATE = '#020617';
const AMBER = '#fbbf24';

/** Lucide's wrench (ISC License) on the 24x24 grid. */
const WRENCH =
  'M14.7 6.3a1 1 0 0 0 0 1.4l1.6 1.6a1 1 0 0 0 1.4 0l3.77-3.77a6 6 0 0 1-7.94 7.94l-6.91 6.91a2.12 2.12 0 0 1-3-3l6.91-6.91a6 6 0 0 1 7.94-7.94l-3.76 3.76z';

/**
 * The mark: a dark wrench on an amber tile. `inset` is the share of the canvas the tile leaves
 * around it: a maskable icon keeps everything inside the middle 80% (the platform crops the rest).
 */
function mark({ fullBleed, inset }: { fullBleed: boolean; inset: number }): string {
  const size = 512;
  const tile = size * (1 - 2 * inset);
  const offset = size * inset;
  const glyph = tile * 0.62;
  const glyphOffset = offset + (tile - glyph) / 2;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}">
  ${fullBleed ? `<rect width="${size}" height="${size}" fill="${SLATE}"/>` : ''}
  <rect x="${offset}" y="${offset}" width="${tile}" height="${tile}" rx="${tile * 0.22}" fill="${AMBER}"/>
  <g transform="translate(${glyphOffset} ${glyphOffset}) scale(${glyph / 24})" fill="none" stroke="${SLATE}" stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round">
    <path d="${WRENCH}"/>
  </g>
</svg>
`;
}

/** A .ico holding one PNG (every current browser reads PNG-in-ICO). */
function ico(png: Buffer, size: number): Buffer {
  const header = Buffer.alloc(22);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(1, 4);
  header.writeUInt8(size, 6);
  header.writeUInt8(size, 7);
  header.writeUInt8(0, 8);
  header.writeUInt8(0, 9);
  header.writeUInt16LE(1, 10);
  header.writeUInt16LE(32, 12);
  header.writeUInt32LE(png.length, 14);
  header.writeUInt32LE(22, 18);
  return Buffer.concat([header, png]);
}

const found = await resolveChromium();
const browser = await chromium.launch({ executablePath: found.executablePath, env: browserEnv(found), args: ['--headless', '--no-sandbox'] });
try {
  const page = await browser.newPage();
  async function render(svg: string, size: number): Promise<Buffer> {
    await page.setViewportSize({ width: size, height: size });
    await page.setContent(
      `<html><body style="margin:0;background:transparent"><img style="display:block;width:${size}px;height:${size}px" src="data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}"></body></html>`,
    );
    await page.locator('img').evaluate((img: HTMLImageElement) => img.decode());
    return page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } });
  }

  const plain = mark({ fullBleed: false, inset: 0.04 });
  const maskable = mark({ fullBleed: true, inset: 0.16 });
  mkdirSync(path.join(publicDir, 'icons'), { recursive: true });
  writeFileSync(path.join(publicDir, 'favicon.svg'), plain);
  writeFileSync(path.join(publicDir, 'icons/icon-192.png'), await render(plain, 192));
  writeFileSync(path.join(publicDir, 'icons/icon-512.png'), await render(plain, 512));
  writeFileSync(path.join(publicDir, 'icons/maskable-512.png'), await render(maskable, 512));
  // iOS puts its own corners on a square, opaque icon.
  writeFileSync(path.join(publicDir, 'icons/apple-touch-icon.png'), await render(mark({ fullBleed: true, inset: 0.1 }), 180));
  writeFileSync(path.join(publicDir, 'favicon.ico'), ico(await render(plain, 32), 32));

  // The poster: a frame a second into the video, at the video's own size, as WebP.
  const video = readFileSync(path.join(publicDir, 'media/background.webm')).toString('base64');
  await page.setContent(`<html><body style="margin:0"><video muted playsinline preload="auto" src="data:video/webm;base64,${video}"></video></body></html>`);
  const poster = await page.locator('video').evaluate(async (el: HTMLVideoElement) => {
    if (el.readyState < 2) {
      await new Promise((resolve, reject) => {
        el.onloadeddata = resolve;
        el.onerror = () => reject(new Error('the video did not load'));
      });
    }
    el.currentTime = Math.min(1, el.duration / 2);
    await new Promise((resolve) => (el.onseeked = resolve));
    const canvas = document.createElement('canvas');
    canvas.width = el.videoWidth;
    canvas.height = el.videoHeight;
    canvas.getContext('2d')!.drawImage(el, 0, 0);
    return { url: canvas.toDataURL('image/webp', 0.6), width: el.videoWidth, height: el.videoHeight };
  });
  writeFileSync(path.join(publicDir, 'media/background-poster.webp'), Buffer.from(poster.url.split(',')[1]!, 'base64'));
  console.log(`poster ${poster.width}x${poster.height}`);
} finally {
  await browser.close();
}
