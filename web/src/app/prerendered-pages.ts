/**
 * The routes whose first screen is rendered into HTML at build time (web/vite-prerender.ts), and the
 * file of the build that answers each. Their largest paint is in the HTML instead of waiting for the
 * entry script (infra/bench/README.md). Every other path is answered with the empty app shell,
 * index.html. The static servers (CloudFront's viewer-request function, the bench's and the CSP
 * test's servers) answer from this list; the service worker keeps index.html as its shell.
 */
export const prerenderedPages: Readonly<Record<string, string>> = {
  '/': '/pages/home.html',
  '/services': '/pages/services.html',
  '/book': '/pages/book.html',
  '/track': '/pages/track.html',
};

/**
 * Whether the page's HTML, prerendered for `prerenderedFor`, can be hydrated at this address. No
 * prerendered page's first render reads the query string (/track shows its booking, /book takes its
 * ?category=, only once hydrated: lib/use-hydrated.ts), so the query does not matter. Hydrating
 * rather than replacing keeps what a person typed into /book's form before its scripts arrived.
 */
export function hydratesAt(prerenderedFor: string, { pathname }: { pathname: string }): boolean {
  return prerenderedFor === pathname;
}

/** The app shell: the HTML of every route that is not prerendered. */
export const APP_SHELL = '/index.html';

/** The HTML file (from the build's root) that answers an app route's path (no query, no hash). */
export function pageFileFor(pathname: string): string {
  return prerenderedPages[pathname] ?? APP_SHELL;
}
