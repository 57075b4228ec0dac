import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { OWNER_SESSION_COOKIE } from '../../../shared/constants';
import { readCookies, serializeCookie } from '../cookies';
import { secureCookies } from '../env';
import { sessions, SESSION_TTL_SECONDS, type Session } from './sessions';

type Event = Pick<APIGatewayProxyEventV2, 'cookies' | 'headers'>;

export interface SessionCaller extends Session {
  /** The secret presented, so logout and password change can act on this very session. */
  secret: string;
}

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
