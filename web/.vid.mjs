import { chromium } from 'playwright-core';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless','--no-sandbox','--disable-gpu'] });
const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
page.on('response', r => { if (r.status() >= 400) console.log('HTTP', r.status(), r.url()); });
await page.goto('http://localhost:3917/'); await page.waitForTimeout(3000);
console.log(await page.evaluate(() => { const v = document.querySelector('video'); return v ? { rs: v.readyState, src: v.currentSrc, t: v.currentTime, paused: v.paused, err: v.error?.code } : 'no video'; }));
await page.screenshot({ path: '/tmp/shots/video.png' });
await browser.close();
