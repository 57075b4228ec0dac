import { chromium } from 'playwright-core';
const base = 'http://localhost:3917';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless','--no-sandbox','--disable-gpu','--disable-background-networking','--disable-component-update','--disable-sync'] });
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
const errors = [];
page.on('pageerror', (e) => errors.push(e.message));
page.on('console', (m) => { if (m.type() === 'error') errors.push('console: ' + m.text()); });
for (const [name, path] of [['landing','/'],['services','/services'],['detail','/services/plumbing'],['detail-missing','/services/nope'],['book','/book?category=plumbing'],['track','/track'],['contact','/contact'],['notfound','/nope'],['upcoming','/apply/worker']]) {
  await page.goto(base + path); await page.waitForTimeout(1200);
  await page.screenshot({ path: `/tmp/shots/${name}.png`, fullPage: name==='landing' });
}
// booking
await page.goto(base + '/book?category=plumbing'); await page.waitForTimeout(800);
await page.getByRole('button', { name: /book|submit|request/i }).click();
await page.waitForTimeout(300);
await page.screenshot({ path: '/tmp/shots/book-invalid.png' });
console.log('focused:', await page.evaluate(() => document.activeElement?.id));
await page.getByLabel(/name/i).fill('Dana Whitfield');
await page.getByLabel(/phone/i).fill('(415) 555-0142');
await page.getByLabel(/address/i).fill('742 Evergreen Terrace, Springfield');
await page.getByLabel(/details/i).fill('Kitchen sink drains slowly.');
await page.getByRole('button', { name: /book|submit|request/i }).click();
await page.waitForURL(/\/track\?id=/);
await page.getByText('Request sent!').waitFor();
await page.waitForTimeout(300);
await page.screenshot({ path: '/tmp/shots/track-booked.png', fullPage: true });
console.log('status', await page.getByTestId('booking-status').getAttribute('data-status'));
await page.setViewportSize({ width: 390, height: 800 });
await page.goto(base + '/'); await page.waitForTimeout(800);
await page.getByRole('button', { name: 'Open menu' }).click();
await page.screenshot({ path: '/tmp/shots/mobile-menu.png' });
console.log('errors', errors);
await browser.close();
