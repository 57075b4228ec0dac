import { OWNER_SESSION_COOKIE } from '../../../shared/constants';
import { sessions } from '../auth/sessions';
import { newId } from '../ids';

export interface OwnerTestSession {
  /** "owner_session=<secret>", ready for withCookies([cookie]). */
  cookie: string;
  secret: string;
  /** The owner id the session names (random: the owner item need not exist). */
  ownerId: string;
}

/**
 * A live admin session for tests. It does not touch the owner item (the table is shared and only
 * one owner can ever be set up), so any test file may call it in parallel with any other.
 */
export async function ownerTestSession(username = 'test-owner'): Promise<OwnerTestSession> {
  const ownerId = newId();
  const { secret } = await sessions.start('admin', ownerId, username);
  return { cookie: `${OWNER_SESSION_COOKIE}=${secret}`, secret, ownerId };
}

/** The cookie of a live admin session: `withCookies(event, [await ownerSessionCookie()])`. */
export async function ownerSessionCookie(): Promise<string> {
  return (await ownerTestSession()).cookie;
}
