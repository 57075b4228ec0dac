import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { inject } from 'vitest';
import { OWNER_SESSION_COOKIE } from '../../shared/constants';
import { hashPassword } from '../common/auth/passwords';
import { sessionItem, sessions } from '../common/auth/sessions';
import { newSecret } from '../common/auth/tokens';
import { dynamo, tableName } from '../common/clients';
import { ownerRepo } from '../identity/data/owner';
import { ConflictError } from '../common/errors';
import { newId } from '../common/ids';

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

/**
 * A session of the set-up owner of the shared test table, setting one up if there is none (calls
 * that check the owner's own record, such as change-password, need the real one).
 */
export async function setUpOwnerSessionCookie(): Promise<string> {
  let owner = await ownerRepo.find();
  if (!owner) {
    await ownerRepo
      .create({ id: newId(), username: 'shared-test-owner', passwordHash: await hashPassword(newId()) })
      .catch((error: unknown) => {
        // Another test file set it up first: use theirs.
        if (!(error instanceof ConflictError)) throw error;
      });
    owner = await ownerRepo.find();
  }
  // Written directly, not through sessions.start: test files running side by side share this one
  // owner, and the session cap would have each file end the sessions the others still hold.
  const secret = newSecret();
  await dynamo.send(new PutCommand({ TableName: tableName, Item: sessionItem('admin', owner!.id, owner!.username, secret) }));
  return `${OWNER_SESSION_COOKIE}=${secret}`;
}

/** The test run's owner setup code, as the operator reads it (infra/testing/dynalite-global-setup.ts). */
export function testSetupCode(): string {
  return inject('setupCode');
}
