import type { APIGatewayProxyEventV2 } from 'aws-lambda';

/** Payload 2.0 delivers cookies as an array of "name=value" strings. */
export function readCookies(event: Pick<APIGatewayProxyEventV2, 'cookies'>): Record<string, string> {
  const jar: Record<string, string> = {};
  for (const pair of event.cookies ?? []) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    const name = pair.slice(0, at).trim();
    try {
      jar[name] = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      // A cookie we did not set may be badly encoded; it is simply not ours.
    }
  }
  return jar;
}

export interface CookieOptions {
  maxAgeSeconds: number;
  secure: boolean;
  httpOnly?: boolean;
  /** Where the browser sends it back: every path unless a cookie serves one route alone. */
  path?: string;
}

export function serializeCookie(name: string, value: string, options: CookieOptions): string {
  const parts = [
    `${name}=${encodeURIComponent(value)}`,
    `Path=${options.path ?? '/'}`,
    `Max-Age=${options.maxAgeSeconds}`,
    'SameSite=Lax',
  ];
  if (options.httpOnly !== false) parts.push('HttpOnly');
  if (options.secure) parts.push('Secure');
  return parts.join('; ');
}
