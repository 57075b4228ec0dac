import { createHash } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { CUSTOMER_COOKIE } from '../../shared/constants';
import { readCookies, serializeCookie } from './cookies';
import { customersRepo } from './data/customers';
import { secureCookies } from './env';

const idPattern = /^[A-Za-z0-9_-]{22}$/;
const ONE_YEAR = 365 * 24 * 60 * 60;

export interface CustomerIdentity {
  id: string;
  /** Set when this request created the identity: the response must carry it. */
  setCookie?: string;
}

/**
 * The anonymous customer the browser's cookie names, if the server issued that identity: a value
 * the client made up, however well formed, is nobody.
 */
export async function existingCustomer(event: Pick<APIGatewayProxyEventV2, 'cookies'>): Promise<string | undefined> {
  const id = readCookies(event)[CUSTOMER_COOKIE];
  if (!id || !idPattern.test(id)) return undefined;
  return (await customersRepo.isIssued(id)) ? id : undefined;
}

export function customerCookie(id: string): string {
  return serializeCookie(CUSTOMER_COOKIE, id, { maxAgeSeconds: ONE_YEAR, secure: secureCookies });
}

/**
 * The caller's customer identity: `known` (what existingCustomer found, read once by the caller,
 * who also rations creation by it), else a new one with its cookie, issued on their first booking,
 * request or hire. `idempotencyKey`: a first-time visitor's retry arrives without the cookie the
 * lost answer carried, so the identity that key minted is found again (by the key's hash).
 */
export async function customerFor(known: string | undefined, idempotencyKey?: string): Promise<CustomerIdentity> {
  if (known) return { id: known };
  const issued = idempotencyKey
    ? await customersRepo.issueForKey(createHash('sha256').update(idempotencyKey).digest('base64url'))
    : await customersRepo.issue();
  return { id: issued, setCookie: customerCookie(issued) };
}
