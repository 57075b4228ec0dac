/**
 * The routes whose first screen is rendered into HTML at build time (web/vite-prerender.ts), and the
 * file of the build that answers each. Their largest paint is in the HTML instead of waiting for the
 * entry script (README "Performance"). Every other path is answered with the empty app shell,
 * index.html. The static servers (CloudFront's viewer-request function, the bench's and the CSP
 * test's servers) answer from this list; the service worker keeps index.html as its shell.
 */
export const prerenderedPages: Readonly<Record<string, string>> = {
  '/': '/pages/home.html',
  '/services': '/pages/services.html',
  '/book': '/pages/book.html',
  '/track': '/pages/track.html',
};

/** The app shell: the HTML of every route that is not prerendered. */
export const APP_SHELL = '/index.html';

/** The HTML file (from the build's root) that answers an app route's path (no query, no hash). */
export function pageFileFor(pathname: string): string {
  return prerenderedPages[pathname] ?? APP_SHELL;
}
