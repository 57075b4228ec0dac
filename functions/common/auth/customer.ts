import { createHash } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { CUSTOMER_COOKIE } from '../../../shared/constants';
import { isId } from '../../../shared/schemas/id';
import type { CustomerCaller } from './caller-types';
import { readCookies, serializeCookie } from '../cookies';
import { customersRepo } from './customers';
import { secureCookies } from '../env';

const ONE_YEAR = 365 * 24 * 60 * 60;

/** The customer a call acts as; `setCookie` is set when this call issued the identity: the response must carry it. */
export type IssuedCustomer = CustomerCaller & { setCookie?: string };

/**
 * The anonymous customer the browser's cookie names, if the server issued that identity: a value
 * the client made up, however well formed, is nobody. An identity gathered into another by "Find
 * my requests" acts as that one (customersRepo.resolve), so every browser still holding it keeps
 * its requests, which were re-filed there.
 */
export async function existingCustomer(event: Pick<APIGatewayProxyEventV2, 'cookies'>): Promise<string | undefined> {
  const id = cookieCustomerId(event);
  return id ? customersRepo.resolve(id) : undefined;
}

/** The id the customer cookie holds, if well formed (issued or not: resolve it before trusting it). */
export function cookieCustomerId(event: Pick<APIGatewayProxyEventV2, 'cookies'>): string | undefined {
  const id = readCookies(event)[CUSTOMER_COOKIE];
  return isId(id) ? id : undefined;
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
export async function customerFor(known: string | undefined, idempotencyKey?: string): Promise<IssuedCustomer> {
  if (known) return { role: 'customer', id: known };
  const issued = idempotencyKey
    ? await customersRepo.issueForKey(createHash('sha256').update(idempotencyKey).digest('base64url'))
    : await customersRepo.issue();
  return { role: 'customer', id: issued, setCookie: customerCookie(issued) };
}
