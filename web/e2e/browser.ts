import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type Page } from 'playwright-core';
import { browserEnv, resolveChromium } from '../../infra/testing/chromium';

/** A Chromium (CHROMIUM_PATH, the system's, or the packaged one), with the flags this closed network needs. */
export async function launchBrowser(): Promise<Browser> {
  const found = await resolveChromium();
  return chromium.launch({
    executablePath: found.executablePath,
    env: browserEnv(found),
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      '--no-first-run',
    ],
  });
}

const axeSource = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/**
 * axe-core's serious and critical findings on the page as it stands (their rule ids). axe is
 * evaluated rather than added as a script tag: the production build's CSP refuses inline scripts,
 * and the page's own policy does not apply to what the test evaluates.
 */
export async function seriousA11yViolations(page: Page): Promise<string[]> {
  await page.evaluate(readFileSync(axeSource, 'utf8'));
  return page.evaluate(async () => {
    type Axe = { run(ctx: Document, opts: object): Promise<{ violations: { id: string; impact: string }[] }> };
    const result = await (window as unknown as { axe: Axe }).axe.run(document, { resultTypes: ['violations'] });
    return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
  });
}
