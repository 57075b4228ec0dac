import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStackProcess, type RunningStack } from '../../infra/testing/local-process';
import { launchBrowser, seriousA11yViolations } from './browser';

const dataDir = mkdtempSync(path.join(tmpdir(), 'marketplace-e2e-company-'));
let stack: RunningStack;
let browser: Browser;


/** A small but well-formed one-page PDF. */
function samplePdf(): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

describe('a company applies with a business licence', () => {
  beforeAll(async () => {
    [stack, browser] = await Promise.all([startStackProcess(dataDir), launchBrowser()]);
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('fills the form after one invalid attempt, uploads a PDF with progress, submits, follows its status link, and sees the owner approve it', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));

    await page.goto(stack.url);
    await page.getByRole('navigation').first().getByRole('link', { name: 'Apply as Company', exact: true }).click();
    await page.waitForURL(/\/apply\/company$/);
    await page.getByRole('heading', { name: 'Company Application', level: 1 }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);

    // An empty submit shows the schema's messages and sends nothing.
    await page.getByRole('button', { name: 'Submit Application' }).click();
    await page.getByText('Company name is required').waitFor();
    await page.getByText('Please select a business type').waitFor();
    await page.getByText('Select at least one worker type').waitFor();
    await page.getByText('You must accept the agreement').waitFor();
    expect(await page.getByLabel('Company name', { exact: true }).evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await seriousA11yViolations(page)).toEqual([]);

    // A file of a refused type is stopped before anything is sent.
    await page.getByLabel('Insurance certificate', { exact: true }).setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    await page.getByText('Only PDF, JPG or PNG files are accepted').first().waitFor();
    await page.getByRole('button', { name: 'Clear' }).click();

    await page.getByLabel('Company name', { exact: true }).fill('Harborview Property Group');
    await page.getByLabel('Business type', { exact: true }).selectOption('Property Management');
    await page.getByLabel('Company address', { exact: true }).fill('120 Harbor Street, Suite 4, Oakland, CA');
    await page.getByLabel('EIN / Tax ID (optional)', { exact: true }).fill('12-3456789');
    await page.getByLabel('Contact name', { exact: true }).fill('Morgan Ellis');
    await page.getByLabel('Phone number', { exact: true }).fill('(510) 555-0188');
    await page.getByLabel('Email address', { exact: true }).fill('morgan@harborview.example');
    await page.getByRole('checkbox', { name: 'Plumbing' }).check();
    await page.getByRole('checkbox', { name: 'Cleaning' }).check();
    await page.getByLabel('Typical number of workers', { exact: true }).selectOption('5-10');
    await page.getByLabel('Average project duration', { exact: true }).selectOption('1 day');

    // The licence goes straight to storage; the field says when it is done.
    await page.getByLabel('Business license', { exact: true }).setInputFiles({ name: 'business-license.pdf', mimeType: 'application/pdf', buffer: samplePdf() });
    await page.getByText('Uploaded business-license.pdf').waitFor();

    await page.getByRole('checkbox', { name: /I confirm the information above is accurate/ }).check();
    await page.getByRole('button', { name: 'Submit Application' }).click();
    await page.getByText('We will contact you within 2-3 business days.').waitFor();
    await page.getByRole('heading', { name: 'Application Submitted' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);

    // The success screen gives the company its status link: the application's unguessable id.
    await page.getByRole('link', { name: 'Check application status' }).click();
    await page.waitForURL(/\/apply\/company\/status\/[A-Za-z0-9_-]{22}$/);
    const statusUrl = page.url();
    await page.getByRole('heading', { name: 'Under review', level: 1 }).waitFor();
    await page.getByText('Harborview Property Group’s application').waitFor();
    expect(await page.locator('main').textContent()).not.toContain('morgan@harborview.example');
    expect(await seriousA11yViolations(page)).toEqual([]);

    // The owner's dashboard lists it (the owner is set up through the API for this check).
    const setup = await page.request.post(`${stack.url}/api/admin/setup`, {
      data: { setupCode: stack.setupCode, username: 'site.owner', email: 'owner@example.com', password: 'Lantern-Harbor-42', confirm: 'Lantern-Harbor-42' },
    });
    expect(setup.status()).toBe(201);
    await page.goto(`${stack.url}/admin`);
    const row = page.getByRole('row', { name: /Harborview Property Group/ });
    await row.waitFor();
    expect(await row.textContent()).toContain('Morgan Ellis');
    expect(await row.textContent()).toContain('Plumbing, Cleaning');

    // The owner approves it with a note; the decision stays in view and the row leaves the pending list.
    await row.getByLabel('Notes for Harborview Property Group').fill('Licence checked.');
    await row.getByRole('button', { name: 'Approve Harborview Property Group' }).click();
    const decision = page.getByRole('group', { name: 'Decision on Harborview Property Group' });
    await decision.getByText('Approved', { exact: true }).waitFor();
    await row.waitFor({ state: 'detached' });
    expect(await seriousA11yViolations(page)).toEqual([]);

    // The company's status link now shows the decision.
    await page.goto(statusUrl);
    await page.getByRole('heading', { name: 'Approved', level: 1 }).waitFor();

    expect(errors).toEqual([]);
  });
});
