import { routeByName } from '../../shared/routes';
import { ownerRepo } from '../identity/data/owner';
import { http } from '../common/http';

export const handler = http(routeByName('get-setup-status'), async () => {
  return { needsSetup: (await ownerRepo.find()) === undefined };
});
