import { routeByName } from '../../shared/routes';
import { ownerRepo } from '../identity/data/owner';
import { http } from '../common/http';

/** The navigation bar's question: is this browser the owner, and is there an owner at all? */
export const handler = http(routeByName('get-admin-status'), async ({ caller }) => {
  const owner = await ownerRepo.find();
  return { isAdmin: caller.role === 'owner', isSetup: owner !== undefined };
});
