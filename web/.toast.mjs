import { chromium } from 'playwright-core';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless','--no-sandbox','--disable-gpu'] });
const page = await browser.newPage();
await page.goto('http://localhost:3917/book?category=plumbing'); await page.waitForTimeout(800);
await page.getByLabel(/name/i).fill('Dana Whitfield');
await page.getByLabel(/phone/i).fill('(415) 555-0142');
await page.getByLabel(/address/i).fill('742 Evergreen Terrace, Springfield');
await page.getByRole('button', { name: /book|submit|request/i }).click();
await page.waitForURL(/\/track\?id=/);
for (let i = 0; i < 8; i++) { console.log(i*150, await page.getByText('Request sent!').count(), await page.evaluate(() => [...document.querySelectorAll('[role=status]')].map(e => e.textContent).join(' | '))); await page.waitForTimeout(150); }
// F8 focuses the region
await page.keyboard.press('F8');
console.log('focused after F8:', await page.evaluate(() => document.activeElement?.tagName + ' ' + document.activeElement?.getAttribute('aria-label') + ' ' + document.activeElement?.className.slice(0,30)));
await browser.close();
