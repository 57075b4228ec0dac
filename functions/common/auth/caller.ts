import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { OWNER_SESSION_COOKIE } from '../../../shared/constants';
import { readCookies, serializeCookie } from '../cookies';
import type { Caller, OwnerCaller, SignedInCaller, WorkerCaller } from './caller-types';
import { existingCustomer } from './customer';
import { secureCookies } from '../env';
import { sessions, SESSION_TTL_SECONDS, type Session } from './sessions';

type Event = Pick<APIGatewayProxyEventV2, 'cookies' | 'headers'>;

/** A live session and the secret presented for it: internal to sign-in; handlers see a Caller. */
export interface SessionCaller extends Session {
  /** The secret presented, so logout and password change can act on this very session. */
  secret: string;
}

const asCaller = <R extends 'owner' | 'worker'>(role: R, session: SessionCaller) =>
  ({ role, id: session.subjectId, username: session.username, sessionSecret: session.secret }) as Extract<Caller, { role: R }>;

export function ownerSessionSecret(event: Event): string | undefined {
  const secret = readCookies(event)[OWNER_SESSION_COOKIE];
  return secret && /^[A-Za-z0-9_-]{43}$/.test(secret) ? secret : undefined;
}

export function bearerSecret(event: Event): string | undefined {
  const header = event.headers?.authorization ?? event.headers?.Authorization;
  const match = header ? /^Bearer ([A-Za-z0-9_-]{43})$/.exec(header.trim()) : null;
  return match?.[1];
}

/** The owner behind the session cookie, if it names a live admin session. */
export async function ownerFrom(event: Event): Promise<SessionCaller | undefined> {
  const secret = ownerSessionSecret(event);
  const session = secret ? await sessions.find(secret) : undefined;
  return session?.role === 'admin' ? { ...session, secret: secret! } : undefined;
}

/** The worker behind the bearer token, if it names a live worker session. */
export async function workerFrom(event: Event): Promise<SessionCaller | undefined> {
  const secret = bearerSecret(event);
  const session = secret ? await sessions.find(secret) : undefined;
  return session?.role === 'worker' ? { ...session, secret: secret! } : undefined;
}

export function ownerSessionCookie(secret: string): string {
  return serializeCookie(OWNER_SESSION_COOKIE, secret, { maxAgeSeconds: SESSION_TTL_SECONDS.admin, secure: secureCookies });
}

export function clearedOwnerSessionCookie(): string {
  return serializeCookie(OWNER_SESSION_COOKIE, '', { maxAgeSeconds: 0, secure: secureCookies });
}

/** The owner behind the session cookie, as a caller. */
export async function ownerCaller(event: Event): Promise<OwnerCaller | undefined> {
  const session = await ownerFrom(event);
  return session ? asCaller('owner', session) : undefined;
}

/** The worker behind the bearer token, as a caller (the worker's profile is not read here). */
export async function workerCaller(event: Event): Promise<WorkerCaller | undefined> {
  const session = await workerFrom(event);
  return session ? asCaller('worker', session) : undefined;
}

/**
 * A person signed in with a password: a worker's token first (a token is sent only on purpose,
 * by the worker's screens), then the owner's session cookie.
 */
export async function signedInCaller(event: Event): Promise<SignedInCaller | undefined> {
  return (await workerCaller(event)) ?? (await ownerCaller(event));
}

/**
 * Whoever the call proves to be, for routes open to anyone that answer each person their own
 * (invoices, notifications, push): a signed-in person first (a worker's browser may also carry a
 * customer cookie), then the customer cookie, else anonymous. Nothing is read for credentials the
 * call does not carry.
 */
export async function identifiedCaller(event: Event): Promise<Caller> {
  const signedIn = await signedInCaller(event);
  if (signedIn) return signedIn;
  const customerId = await existingCustomer(event);
  return customerId ? { role: 'customer', id: customerId } : { role: 'anonymous' };
}
