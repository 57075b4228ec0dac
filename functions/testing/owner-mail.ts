import { ownerEntity } from '../../shared/entities';
import { hashPassword } from '../common/auth/passwords';
import { ownerRepo } from '../identity/data/owner';
import { updateOf } from '../common/data/expressions';
import { tryUpdate } from '../common/data/write';
import { ConflictError } from '../common/errors';
import { newId } from '../common/ids';

/** The address the shared test owner is given when it has none yet. */
const TEST_OWNER_EMAIL = 'owner@fixly-tests.example.com';

/**
 * The address the owner's mail goes to in the shared test table: the one owner is set up if there
 * is none (as setUpOwnerSessionCookie does) and given an address if it has none. An address it has
 * already is kept, so test files running side by side all read the same one; each test tells its
 * own mails apart by what they are about (an application's or document's id, a private day).
 */
export async function ownerMailbox(): Promise<string> {
  if (!(await ownerRepo.find())) {
    await ownerRepo.create({ id: newId(), username: 'shared-test-owner', passwordHash: await hashPassword(newId()) }).catch((error: unknown) => {
      // Another test file set it up first: use theirs.
      if (!(error instanceof ConflictError)) throw error;
    });
  }
  await tryUpdate(updateOf(ownerEntity, ownerEntity.key(), { set: { email: TEST_OWNER_EMAIL }, if: (c) => c.notExists('email') }));
  const owner = await ownerRepo.find();
  if (!owner?.email) throw new Error('ownerMailbox: the owner has no email address');
  return owner.email;
}
