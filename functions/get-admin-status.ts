import { routeByName } from '../shared/routes';
import { ownerFrom } from './lib/auth/caller';
import { ownerRepo } from './lib/data/owner';
import { http } from './lib/http';

/** The navigation bar's question: is this browser the owner, and is there an owner at all? */
export const handler = http(routeByName('get-admin-status'), async ({ event }) => {
  const [session, owner] = await Promise.all([ownerFrom(event), ownerRepo.find()]);
  return { isAdmin: session !== undefined, isSetup: owner !== undefined };
});
