import { routeByName } from '../../shared/routes';
import { searchAddresses } from './geocoder';
import { http } from '../common/http';

/** Address suggestions for the request form; `available: false` when the geocoder could not answer. */
export const handler = http(routeByName('search-addresses'), async ({ query }) => searchAddresses(query.q));
