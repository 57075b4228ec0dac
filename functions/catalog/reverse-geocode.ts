import { routeByName } from '../../shared/routes';
import { reverseGeocode } from './geocoder';
import { http } from '../common/http';

/** The address at the browser's position ("use my location"); `available: false` when the geocoder could not answer. */
export const handler = http(routeByName('reverse-geocode'), async ({ query }) => {
  return reverseGeocode(query.lat, query.lng);
});
