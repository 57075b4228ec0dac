import type { RealtimeRole } from '../../shared/realtime';
import type { Caller } from '../common/auth/caller-types';
import { UnauthorizedError } from '../common/errors';

/**
 * Whom a push subscription (or a notification) belongs to: the same (role, id) pairs the
 * notification channels use (functions/realtime/data/connections.ts), so a notification for a person can
 * also go out as a push. There is one owner, whose channel id is fixed.
 */
export interface PushPerson {
  role: RealtimeRole;
  userId: string;
}

export const OWNER_PUSH_ID = 'owner';

/** The channel of an identified caller (routes open to 'anyone'); an anonymous one has none. */
export function pushPersonOf(caller: Caller): PushPerson | undefined {
  if (caller.role === 'anonymous') return undefined;
  return { role: caller.role, userId: caller.role === 'owner' ? OWNER_PUSH_ID : caller.id };
}

export function requirePushPerson(caller: Caller): PushPerson {
  const person = pushPersonOf(caller);
  if (!person) {
    throw new UnauthorizedError('Push notifications are for signed-in people: log in, or make a booking or request first.');
  }
  return person;
}
