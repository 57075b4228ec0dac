import { routeByName } from '../../shared/routes';
import { servicesRepo } from './data/services';
import { http } from '../common/http';

export const handler = http(routeByName('list-services'), async () => servicesRepo.listAll());
