import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { CUSTOMER_COOKIE } from '../../shared/constants';
import { readCookies, serializeCookie } from './cookies';
import { secureCookies } from './env';
import { newId } from './ids';

const idPattern = /^[A-Za-z0-9_-]{22}$/;
const ONE_YEAR = 365 * 24 * 60 * 60;

export interface CustomerIdentity {
  id: string;
  /** Set when this request created the identity: the response must carry it. */
  setCookie?: string;
}

/** The anonymous customer of DESIGN.md section 7, if the browser already has one. */
export function existingCustomer(event: Pick<APIGatewayProxyEventV2, 'cookies'>): string | undefined {
  const id = readCookies(event)[CUSTOMER_COOKIE];
  return id && idPattern.test(id) ? id : undefined;
}

/**
 * The caller's customer id, minting one (and its cookie) on the first booking or request: `fresh`
 * when the call derives it (functions/lib/idempotency.ts), a random one otherwise.
 */
export function customerFor(event: Pick<APIGatewayProxyEventV2, 'cookies'>, fresh = newId()): CustomerIdentity {
  const id = existingCustomer(event);
  if (id) return { id };
  return {
    id: fresh,
    setCookie: serializeCookie(CUSTOMER_COOKIE, fresh, { maxAgeSeconds: ONE_YEAR, secure: secureCookies }),
  };
}
