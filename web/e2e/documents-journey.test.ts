import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Download, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStackProcess, type RunningStack } from '../../infra/testing/local-process';
import { launchBrowser, seriousA11yViolations } from './browser';
import { collectErrors, OFFLINE_GEOCODER, toast } from './journey';
import { approvedPro, ownerCookie, signIn, type Pro } from './people';

/**
 * Compliance documents end to end through the production code, the local S3 (presigned POST and
 * GET with their policies) and the browser: a pro uploads a PDF with the progress bar moving,
 * sees it listed, views and downloads it, deletes it; a file that is not what its name says is refused; an
 * ID expiring within 30 days shows in the expiring list; the owner approves it; the pro replaces
 * it with a renewal, which the owner rejects with notes the pro then reads.
 */

/**
 * A real PDF of ~600 KB: a page and one incompressible stream. Big enough that a browser on a
 * throttled link reports upload progress several times along the way.
 */
function pdf(bytes: number): Buffer {
  const filler = randomBytes(bytes);
  const parts: Buffer[] = [];
  const offsets: number[] = [];
  let length = 0;
  const push = (chunk: string | Buffer) => {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk, 'latin1') : chunk;
    parts.push(buffer);
    length += buffer.length;
  };
  push('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n');
  offsets.push(length);
  push('1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n');
  offsets.push(length);
  push('2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n');
  offsets.push(length);
  push('3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>\nendobj\n');
  offsets.push(length);
  push(`4 0 obj\n<< /Length ${filler.length} >>\nstream\n`);
  push(filler);
  push('\nendstream\nendobj\n');
  const xref = length;
  push(`xref\n0 5\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`);
  push(`trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(parts);
}

/** YYYY-MM-DD, `days` from today in UTC (the server's calendar for expiry dates). */
function inDays(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/** Every value the upload's progress bar takes, recorded in the page as it happens. */
async function recordProgress(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: number[] = [];
    (window as unknown as { progressSeen: number[] }).progressSeen = seen;
    const note = (el: Element) => {
      const value = Number(el.getAttribute('aria-valuenow'));
      if (seen.at(-1) !== value) seen.push(value);
    };
    new MutationObserver((records) => {
      for (const record of records) {
        if (record.type === 'attributes' && record.target instanceof Element && record.target.getAttribute('role') === 'progressbar') note(record.target);
        for (const node of record.addedNodes) {
          if (node instanceof Element) node.querySelectorAll('[role="progressbar"]').forEach(note);
          if (node instanceof Element && node.getAttribute('role') === 'progressbar') note(node);
        }
      }
    }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-valuenow'] });
  });
}

/**
 * axe's serious findings once the page is at rest: the pointer off every control and every finite
 * animation or transition finished. A button just clicked stays hovered, and the UI kit's
 * destructive hover (white on red-500, 3.8:1) is below AA: a finding for the kit, not this screen.
 */
async function violationsAtRest(page: Page): Promise<string[]> {
  await page.mouse.move(0, 0);
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  return seriousA11yViolations(page);
}

describe('a pro manages compliance documents and the owner reviews them', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'marketplace-documents-e2e-'));
  let stack: RunningStack;
  let browser: Browser;
  let owner: string;
  let pro: Pro;

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startStackProcess(dataDir, OFFLINE_GEOCODER), launchBrowser()]);
    owner = await ownerCookie(stack);
    pro = await approvedPro(stack.url, owner, 'Morgan Reyes', ['plumbing']);
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('uploads with real progress, views, deletes, refuses a fake, lists an expiring ID; the owner approves it, rejects its replacement with notes', async () => {
    const workerContext: BrowserContext = await browser.newContext();
    await signIn(workerContext, stack.url, pro);
    const page = await workerContext.newPage();
    const errors = collectErrors(page);
    // The browser logs every 4xx as a console error: the refused fake is expected to log its own.
    // The site has no favicon yet, and the browser asks for /favicon.ico by itself on every load.
    let expecting4xx = false;
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      if (expecting4xx && /status of 4\d\d/.test(message.text())) return;
      if (new URL(message.location().url || 'about:blank').pathname === '/favicon.ico') return;
      consoleErrors.push(`${message.text()} (${message.location().url})`);
    });

    await page.goto(`${stack.url}/worker/dashboard`);
    await page.getByRole('tab', { name: 'Documents' }).click();
    const missing = page.getByRole('list', { name: 'Required documents still missing' });
    await missing.getByText('Form W-9').waitFor();
    await missing.getByText('Trade license').waitFor();
    await page.getByText('No documents yet').waitFor();
    await page.getByText('No documents expire within the next 30 days.').waitFor();
    // Upload stays off until a category is chosen.
    expect(await page.getByRole('button', { name: 'Upload Document' }).isDisabled()).toBe(true);
    expect(await page.getByLabel('File', { exact: true }).isDisabled()).toBe(true);
    expect(await violationsAtRest(page)).toEqual([]);

    // A ~600 KB W-9 over a throttled link (256 KB/s up, as on a phone): the bar follows the bytes.
    const w9 = pdf(600 * 1024);
    await page.getByLabel('Document category').selectOption({ label: 'Form W-9 (required)' });
    expect(await page.getByLabel('File', { exact: true }).getAttribute('accept')).toBe('.pdf,.jpg,.jpeg,.png,application/pdf,image/jpeg,image/png');
    await page.getByRole('button', { name: 'Upload Document' }).click();
    await page.getByText('Please select a file and category').waitFor();
    await page.getByLabel('File', { exact: true }).setInputFiles({ name: 'w9-2026.pdf', mimeType: 'application/pdf', buffer: w9 });
    await page.getByLabel('Display name (optional)').fill('W-9 2026');
    await page.getByLabel('Description (optional)').fill('Signed and dated.');
    await recordProgress(page);
    const cdp = await workerContext.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 256 * 1024 });
    await page.getByRole('button', { name: 'Upload Document' }).click();
    await page.getByRole('progressbar', { name: 'Uploading w9-2026.pdf' }).waitFor();
    await toast(page, 'Upload Successful');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    const progress = await page.evaluate(() => (window as unknown as { progressSeen: number[] }).progressSeen);
    expect(progress.filter((value) => value > 0 && value < 100).length).toBeGreaterThanOrEqual(2);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.at(-1)).toBe(100);

    // Listed, waiting for review, with its size in KB; no longer missing.
    const card = page.getByRole('article', { name: 'W-9 2026' });
    await card.getByText('Pending review').waitFor();
    await card.getByText(`w9-2026.pdf (${Number((w9.length / 1024).toFixed(2))} KB)`).waitFor();
    await missing.getByText('Trade license').waitFor();
    expect(await missing.getByText('Form W-9').count()).toBe(0);
    expect(await violationsAtRest(page)).toEqual([]);

    // View opens a new tab on the presigned link, which serves the very PDF, inline. The tab is
    // followed to its request for the link, not to what it then shows: showing a PDF in the tab is
    // the browser's own viewer (navigator.pdfViewerEnabled); one without it, as Chromium's headless
    // shell, saves the file instead and leaves the tab where it was.
    const [viewer, link] = await Promise.all([
      workerContext.waitForEvent('page'),
      workerContext.waitForEvent('request', (request) => /X-Amz-Signature=/.test(request.url())),
      card.getByRole('button', { name: 'View W-9 2026' }).click(),
    ]);
    expect(link.isNavigationRequest()).toBe(true);
    expect(link.frame().page()).toBe(viewer);
    await toast(page, 'Download Started');
    const served = await fetch(link.url());
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('application/pdf');
    expect(served.headers.get('content-disposition')).toMatch(/^inline/);
    expect(Buffer.from(await served.arrayBuffer()).equals(w9)).toBe(true);
    await viewer.close();

    // Download does the same with an attachment: the browser saves the file under its name.
    // The dashboard's script sends the new tab to the link, so Chromium may report the download on
    // either page, and as soon as the tab exists: both are listened to from the start.
    const downloadStarted = new Promise<Download>((resolve) => {
      page.once('download', resolve);
      workerContext.once('page', (tab) => tab.once('download', resolve));
    });
    const [downloadTab] = await Promise.all([workerContext.waitForEvent('page'), card.getByRole('button', { name: 'Download W-9 2026' }).click()]);
    const download = await downloadStarted;
    expect(download.suggestedFilename()).toBe('w9-2026.pdf');
    expect(await download.failure()).toBeNull();
    if (!downloadTab.isClosed()) await downloadTab.close();

    // Delete asks first, then the document is gone.
    await card.getByRole('button', { name: 'Delete W-9 2026' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete this document?' });
    await confirm.waitFor();
    expect(await violationsAtRest(page)).toEqual([]);
    await confirm.getByRole('button', { name: 'Delete document' }).click();
    await toast(page, 'Document Deleted');
    await page.getByText('No documents yet').waitFor();
    await missing.getByText('Form W-9').waitFor();

    // A page of HTML named .png is refused by the server's check, with its message.
    expecting4xx = true;
    await page.getByLabel('Document category').selectOption({ label: 'Certifications and training' });
    await page.getByLabel('File', { exact: true }).setInputFiles({ name: 'osha-10.png', mimeType: 'image/png', buffer: Buffer.from('<!doctype html><p>not an image</p>') });
    await page.getByRole('button', { name: 'Upload Document' }).click();
    await toast(page, 'Upload Failed');
    await page.getByRole('alert').filter({ hasText: /not a real PNG/ }).first().waitFor();
    await page.getByText('No documents yet').waitFor();
    expecting4xx = false;

    // A photo ID expiring in 10 days: the expiry date is asked for, and it shows as expiring.
    await page.getByLabel('Document category').selectOption({ label: 'Government-issued photo ID (required)' });
    await page.getByLabel('File', { exact: true }).setInputFiles({ name: 'licence.pdf', mimeType: 'application/pdf', buffer: pdf(20 * 1024) });
    await page.getByLabel('Display name (optional)').fill('Driver licence');
    await page.getByRole('button', { name: 'Upload Document' }).click();
    await page.getByText('Enter the date Government-issued photo ID expires').waitFor();
    await page.getByLabel('Expiration date').fill(inDays(10));
    await page.getByRole('button', { name: 'Upload Document' }).click();
    await toast(page, 'Upload Successful');
    const expiring = page.getByRole('list', { name: 'Documents expiring within 30 days' });
    await expiring.getByText('Driver licence').waitFor();
    await expiring.getByText('Expires in 10 days', { exact: false }).waitFor();
    await page.getByRole('article', { name: 'Driver licence' }).getByText('Expiring soon').waitFor();

    // Filters: by status, none approved yet; by type, the legal ID.
    await page.getByLabel('Status').selectOption({ label: 'Approved' });
    await page.getByText('No documents match these filters').waitFor();
    await page.getByLabel('Status').selectOption({ label: 'All statuses' });
    await page.getByLabel('Document type').selectOption({ label: 'Legal' });
    await page.getByRole('article', { name: 'Driver licence' }).waitFor();
    expect(await violationsAtRest(page)).toEqual([]);

    // The owner sees Morgan's compliance and the ID waiting for review, and approves it.
    const ownerContext = await browser.newContext();
    const [name, value] = owner.split('=') as [string, string];
    await ownerContext.addCookies([{ name, value, url: stack.url }]);
    const admin = await ownerContext.newPage();
    const adminErrors = collectErrors(admin);
    await admin.goto(`${stack.url}/admin?tab=documents`);
    const row = admin.getByRole('row', { name: /Morgan Reyes/ });
    await row.waitFor();
    expect(await row.getByRole('cell').nth(0).textContent()).toMatch(/Form W-9/);
    const pending = admin.getByRole('article', { name: 'Driver licence of Morgan Reyes' });
    await pending.getByText('Pending review').waitFor();
    expect(await violationsAtRest(admin)).toEqual([]);
    const [adminViewer, adminLink] = await Promise.all([
      ownerContext.waitForEvent('page'),
      ownerContext.waitForEvent('request', (request) => /X-Amz-Signature=/.test(request.url())),
      pending.getByRole('button', { name: 'View Driver licence of Morgan Reyes' }).click(),
    ]);
    expect(adminLink.isNavigationRequest()).toBe(true);
    expect(adminLink.frame().page()).toBe(adminViewer);
    await adminViewer.close();
    await pending.getByRole('button', { name: 'Approve Driver licence of Morgan Reyes' }).click();
    await toast(admin, 'Document Approved');
    await admin.getByText('No documents waiting for review').waitFor();

    // Back on the pro's tab: approved.
    await page.getByLabel('Document type').selectOption({ label: 'All types' });
    await page.reload();
    await page.getByRole('tab', { name: 'Documents' }).click();
    const licence = page.getByRole('article', { name: 'Driver licence' });
    await licence.getByText('Approved', { exact: true }).waitFor();

    // The pro replaces the ID with a renewed one: version 2, in review, no longer expiring.
    await licence.getByRole('button', { name: 'Replace Driver licence' }).click();
    await page.getByRole('heading', { name: 'Replace Driver licence' }).waitFor();
    expect(await page.getByLabel('Document category').isDisabled()).toBe(true);
    await page.getByLabel('File', { exact: true }).setInputFiles({ name: 'licence-renewed.pdf', mimeType: 'application/pdf', buffer: pdf(30 * 1024) });
    await page.getByLabel('Display name (optional)').fill('Driver licence');
    await page.getByLabel('Expiration date').fill(inDays(400));
    await page.getByRole('button', { name: 'Upload Replacement' }).click();
    await toast(page, 'Upload Successful');
    await page.getByRole('heading', { name: 'Upload a document' }).waitFor();
    await licence.getByText('Pending review').waitFor();
    await licence.getByText('licence-renewed.pdf', { exact: false }).waitFor();
    expect(await licence.locator('dt', { hasText: 'Version' }).locator('xpath=following-sibling::dd[1]').textContent()).toBe('2');
    await page.getByText('No documents expire within the next 30 days.').waitFor();

    // The owner opens Morgan's documents and rejects the renewal; notes are required.
    await admin.getByRole('button', { name: 'Documents of Morgan Reyes' }).click();
    await admin.getByRole('heading', { name: 'Documents of Morgan Reyes' }).waitFor();
    const renewal = admin.getByRole('article', { name: 'Driver licence of Morgan Reyes' });
    await renewal.getByRole('button', { name: 'Reject Driver licence of Morgan Reyes' }).click({ timeout: 15_000 });
    const reject = admin.getByRole('dialog', { name: 'Reject document' });
    await reject.getByRole('button', { name: 'Reject document' }).click();
    await reject.getByText('Notes are required to reject a document').waitFor();
    expect(await violationsAtRest(admin)).toEqual([]);
    await reject.getByLabel('Review notes').fill('The photo is blurred; please upload a sharper scan.');
    await reject.getByRole('button', { name: 'Reject document' }).click();
    await toast(admin, 'Document Rejected');

    // The pro sees the rejection with its notes, and the ID is missing again.
    await page.reload();
    await page.getByRole('tab', { name: 'Documents' }).click();
    await licence.getByText('Rejected', { exact: true }).waitFor();
    await licence.getByText('The photo is blurred; please upload a sharper scan.').waitFor();
    await missing.getByText('Government-issued photo ID').waitFor();
    expect(await violationsAtRest(page)).toEqual([]);

    expect(errors).toEqual([]);
    expect(adminErrors).toEqual([]);
    expect(consoleErrors).toEqual([]);
    await Promise.all([workerContext.close(), ownerContext.close()]);
  });

  it('says so when the document calls fail, and recovers on Retry', async () => {
    const context = await browser.newContext();
    await signIn(context, stack.url, pro);
    const page = await context.newPage();
    const errors = collectErrors(page);
    const fail = (status: number, message?: string) => ({
      status,
      contentType: 'application/json',
      body: JSON.stringify(message ? { error: 'Unavailable', message } : { error: 'InternalError' }),
    });
    await page.route('**/api/documents/categories', (route) => route.fulfill(fail(503)));
    await page.route(/\/api\/documents(\?.*)?$/, (route) => route.fulfill(fail(500)));

    await page.goto(`${stack.url}/worker/dashboard`);
    await page.getByRole('tab', { name: 'Documents' }).click();
    await page.getByRole('alert').filter({ hasText: 'Failed to fetch categories' }).waitFor();
    const listProblem = page.getByRole('alert').filter({ hasText: 'Failed to fetch documents' });
    await listProblem.waitFor();
    expect(await page.getByLabel('Document category').isDisabled()).toBe(true);
    expect(await violationsAtRest(page)).toEqual([]);

    // Back up: Retry loads what the pro has (the rejected renewal from the first journey).
    await page.unroute('**/api/documents/categories');
    await page.unroute(/\/api\/documents(\?.*)?$/);
    await page.getByRole('alert').filter({ hasText: 'Failed to fetch categories' }).getByRole('button', { name: 'Retry' }).click();
    await listProblem.getByRole('button', { name: 'Retry' }).click();
    const licence = page.getByRole('article', { name: 'Driver licence' });
    await licence.waitFor();
    expect(await page.getByLabel('Document category').isDisabled()).toBe(false);

    // A link that cannot be had: 'Download Failed' with the server's message, and no tab left open.
    await page.route('**/api/documents/*/download?*', (route) => route.fulfill(fail(404, 'Document not found')));
    await licence.getByRole('button', { name: 'Download Driver licence' }).click();
    await toast(page, 'Download Failed');
    await page.getByText('Document not found', { exact: true }).waitFor();
    expect(context.pages()).toHaveLength(1);

    // A delete the server refuses: 'Delete Failed', its message in the dialog, the document kept.
    await page.route('**/api/documents/*', (route) =>
      route.request().method() === 'DELETE' ? route.fulfill(fail(503, 'Storage is unavailable, try again shortly')) : route.fallback(),
    );
    await licence.getByRole('button', { name: 'Delete Driver licence' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete this document?' });
    await confirm.getByRole('button', { name: 'Delete document' }).click();
    await toast(page, 'Delete Failed');
    await confirm.getByRole('alert').getByText('Storage is unavailable, try again shortly').waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await licence.waitFor();

    // Cancel upload stops the transfer midway: no bar, no toast, nothing new in the list.
    await page.getByLabel('Document category').selectOption({ label: 'Form W-9 (required)' });
    await page.getByLabel('File', { exact: true }).setInputFiles({ name: 'w9-slow.pdf', mimeType: 'application/pdf', buffer: pdf(600 * 1024) });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 64 * 1024 });
    await page.getByRole('button', { name: 'Upload Document' }).click();
    const bar = page.getByRole('progressbar', { name: 'Uploading w9-slow.pdf' });
    await expect.poll(async () => Number((await bar.getAttribute('aria-valuenow')) ?? 0), { timeout: 15_000 }).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Cancel upload' }).click();
    await bar.waitFor({ state: 'detached' });
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    expect(await page.getByRole('button', { name: 'Upload Document' }).isEnabled()).toBe(true);
    expect(await page.getByText('Upload Failed', { exact: true }).count()).toBe(0);
    expect(await page.getByRole('list', { name: 'My documents' }).getByRole('article').count()).toBe(1);

    expect(errors).toEqual([]);
    await context.close();
  });
});
