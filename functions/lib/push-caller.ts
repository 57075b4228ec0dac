import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { RealtimeRole } from '../../shared/realtime';
import { signedInPerson } from './auth/person';
import { UnauthorizedError } from './errors';

/**
 * Whom a push subscription belongs to: the same (role, id) pairs the notification channels use
 * (functions/lib/data/connections.ts), so a notification for a person can also go out as a push.
 * There is one owner, whose channel id is fixed.
 */
export interface PushPerson {
  role: RealtimeRole;
  userId: string;
}

export const OWNER_PUSH_ID = 'owner';

/**
 * The signed-in person behind a push call: a worker's token first (a worker's browser may also
 * carry a customer cookie), then the owner's session, then the customer cookie.
 */
export async function pushPersonOf(event: APIGatewayProxyEventV2): Promise<PushPerson | undefined> {
  const person = await signedInPerson(event);
  return person ? { role: person.role, userId: person.role === 'owner' ? OWNER_PUSH_ID : person.id } : undefined;
}

export async function requirePushPerson(event: APIGatewayProxyEventV2): Promise<PushPerson> {
  const person = await pushPersonOf(event);
  if (!person) {
    throw new UnauthorizedError('Push notifications are for signed-in people: log in, or make a booking or request first.');
  }
  return person;
}
