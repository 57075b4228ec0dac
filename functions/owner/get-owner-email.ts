import { routeByName } from '../../shared/routes';
import { ownerRepo } from '../identity/data/owner';
import { UnauthorizedError } from '../common/errors';
import { http, reply } from '../common/http';

/** The owner's email on file (where a reset link goes), or null: an owner set up before it was asked for has none. */
export const handler = http(routeByName('get-owner-email'), async ({ caller }) => {
  const owner = await ownerRepo.find();
  if (!owner || owner.id !== caller.id) throw new UnauthorizedError('Log in as the owner to continue.');
  return reply(200, { email: owner.email ?? null });
});
