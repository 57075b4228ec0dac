import type { Page } from 'playwright-core';

/** What the browser journeys share: places, the offline geocoder, toasts and page errors. */

/** The customer (San Francisco City Hall) and pros a few blocks away, and farther. */
export const HOME = { latitude: 37.7793, longitude: -122.4193 };
export const NEAR = { latitude: 37.7812, longitude: -122.4158 };
export const FARTHER = { latitude: 37.7952, longitude: -122.4028 };
/** The geocoder is out of reach here; a closed port makes that immediate rather than a timeout. */
export const OFFLINE_GEOCODER = { GEOCODER_URL: 'http://127.0.0.1:9' };

export async function toast(page: Page, title: string): Promise<void> {
  await page.getByText(title, { exact: true }).first().waitFor();
}

/** Uncaught errors of the page, to assert there were none. */
export function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}
