import { env } from './env';

type Headers = Record<string, string | undefined>;

/**
 * Whether a browser sent this from our own site. Cookies ride along on requests another site's page
 * makes (a form that posts itself, a WebSocket it opens), and SameSite=Lax does not stop a page on
 * another port of the same host: the browser's own word on where a request came from does.
 * Sec-Fetch-Site first (every current browser sends it), else Origin (browsers send it on every
 * unsafe request and every WebSocket handshake). Neither means no browser made the call, so no
 * browser's cookies are being borrowed: command-line and server-to-server callers pass.
 * `headers` are lower-cased names, as API Gateway's HTTP API delivers them.
 */
export function fromOwnSite(headers: Headers): boolean {
  const site = headers['sec-fetch-site'];
  if (site !== undefined) return site === 'same-origin' || site === 'none';
  const origin = headers.origin;
  if (origin === undefined) return true;
  return ownOrigins(headers).includes(origin.toLowerCase());
}

/**
 * The site's origins: PUBLIC_URL when configured, and the host the visitor asked for (CloudFront
 * passes it on as X-Forwarded-Host, since API Gateway only sees its own; locally it is Host).
 */
function ownOrigins(headers: Headers): string[] {
  const origins = env.PUBLIC_URL ? [env.PUBLIC_URL.replace(/\/+$/, '').toLowerCase()] : [];
  for (const host of [headers['x-forwarded-host'], headers.host]) {
    if (host) origins.push(`https://${host.toLowerCase()}`, `http://${host.toLowerCase()}`);
  }
  return origins;
}

export const CROSS_SITE_MESSAGE = 'This request came from another site. Open the page on this site and try again.';
