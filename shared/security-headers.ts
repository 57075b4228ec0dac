/**
 * The security headers every response carries: CloudFront's response-headers policy in
 * the cloud (infra/parts/site.ts builds it from this module) and the local runtime
 * (infra/local/http-api.ts) send the same values, so the app is tested under the policy it ships with.
 *
 * What the Content-Security-Policy allows, and why:
 * - scripts, styles, fonts, workers, the manifest: this origin only (the production build has no
 *   inline script or style element; React and Leaflet set styles through the DOM, which CSP allows);
 * - connect: this origin (the API and /ws: CSP Level 3 lets 'self' match ws:/wss: on the same host)
 *   and the uploads bucket, which the browser POSTs files to with a presigned form;
 * - images: this origin, data:/blob: (Leaflet, file previews), the OpenStreetMap tiles of the live
 *   map, and the uploads bucket (presigned profile photos);
 * - no plugins, no framing by anyone, <base> and form posts to this origin only. Stripe Checkout and
 *   onboarding are reached by navigation (window.location), which CSP does not restrict, and no
 *   Stripe script runs on our pages; push services are contacted by the browser, not by our code.
 *
 * `npm start` serves the web app through Vite's dev server, whose module graph needs an inline
 * React Refresh preamble, injected <style> elements and its HMR socket: `development: true` adds
 * exactly those allowances ('unsafe-inline' for scripts and styles, ws: for HMR). The production
 * build (CloudFront, `vite preview`, the bench) gets the strict policy.
 */

/** The OpenStreetMap tile server web/src/domain/location/live-map.tsx loads tiles from. */
export const MAP_TILE_ORIGIN = 'https://tile.openstreetmap.org';

/** The origins of a regional S3 bucket's presigned URLs (virtual-hosted style, as the SDK makes them). */
export function s3Origins(region: string): string[] {
  return [`https://*.s3.${region}.amazonaws.com`, 'https://*.s3.amazonaws.com'];
}

export interface PolicyOptions {
  /** Origins the browser uploads files to and reads presigned images from (the uploads bucket). */
  uploadOrigins?: readonly string[];
  /** Vite's dev server: its inline preamble, injected styles and HMR socket. Never in the cloud. */
  development?: boolean;
}

/** One directive per line of the table; joined into the header value. */
export function contentSecurityPolicyFor({ uploadOrigins = [], development = false }: PolicyOptions = {}): string {
  const dev = (...sources: string[]) => (development ? sources : []);
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...dev("'unsafe-inline'")],
    'style-src': ["'self'", ...dev("'unsafe-inline'")],
    'img-src': ["'self'", 'data:', 'blob:', MAP_TILE_ORIGIN, ...uploadOrigins],
    'font-src': ["'self'"],
    'connect-src': ["'self'", ...uploadOrigins, ...dev('ws:', 'wss:')],
    'worker-src': ["'self'"],
    'manifest-src': ["'self'"],
    'object-src': ["'none'"],
    'frame-src': ["'none'"],
    'frame-ancestors': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
  };
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${[...new Set(sources)].join(' ')}`)
    .join('; ');
}

/** Strict-Transport-Security: two years, subdomains included (CloudFront's policy takes these parts). */
export const HSTS_MAX_AGE_SECONDS = 2 * 365 * 24 * 60 * 60;
export const strictTransportSecurity = `max-age=${HSTS_MAX_AGE_SECONDS}; includeSubDomains`;

/** Only geolocation, and only for this origin (a pro shares their position when clocking in). */
export const permissionsPolicy =
  'geolocation=(self), camera=(), microphone=(), payment=(), usb=()';

export const referrerPolicy = 'strict-origin-when-cross-origin';

/** Every security header by name (lower case, as HTTP/2 sends them), for the given CSP options. */
export function securityHeadersFor(options: PolicyOptions = {}): Record<string, string> {
  return {
    'content-security-policy': contentSecurityPolicyFor(options),
    'strict-transport-security': strictTransportSecurity,
    'x-content-type-options': 'nosniff',
    'referrer-policy': referrerPolicy,
    'x-frame-options': 'DENY',
    'permissions-policy': permissionsPolicy,
  };
}

/**
 * The cloud's policy when the uploads bucket's region is not known here: any bucket in the
 * region-qualified and legacy S3 endpoints. The stack should prefer
 * `contentSecurityPolicyFor({ uploadOrigins: s3Origins(region) })` or the bucket's own origin.
 */
export const contentSecurityPolicy = contentSecurityPolicyFor({ uploadOrigins: ['https://*.amazonaws.com'] });
export const securityHeaders: Record<string, string> = securityHeadersFor({ uploadOrigins: ['https://*.amazonaws.com'] });
