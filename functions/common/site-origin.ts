import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { env } from './env';
import { BadRequestError } from './errors';

/**
 * Where Stripe sends the browser back: PUBLIC_URL when configured, else the origin of the page
 * that called us (browsers send Origin on every POST; CloudFront forwards it). A caller can only
 * steer its own session's return address, never another's.
 */
export function siteOrigin(event: Pick<APIGatewayProxyEventV2, 'headers'>): string {
  if (env.PUBLIC_URL) return env.PUBLIC_URL.replace(/\/+$/, '');
  const raw = event.headers?.origin ?? (event.headers?.referer ? safeOrigin(event.headers.referer) : undefined);
  const origin = raw ? safeOrigin(raw) : undefined;
  if (!origin) throw new BadRequestError('Open this page from the site to continue: the request did not say which site it came from.');
  return origin;
}

function safeOrigin(value: string): string | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}
