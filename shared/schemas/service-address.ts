import * as z from 'zod/mini';
import { strictBody } from '../validation';
import { notCoordinates, text } from './fields';

export type { ServiceAddressView } from './views/people';

/**
 * PUT /api/customer/service-address: where the customer wants the work done, saved once. The worker
 * list measures its distance bands from it, and only from it: a listing that measured from any
 * point a query named would let anyone walk toward a pro. The position is the chosen suggestion's
 * or the browser's fix (the form sends none for typed text it could not place).
 */
export const serviceAddressSchema = strictBody({
  address: text(
    'Enter your service address',
    z.minLength(1, 'Enter your service address'),
    z.maxLength(200, 'The service address must be at most 200 characters'),
    notCoordinates(),
  ),
  latitude: z.number({ error: 'Choose the address from the suggestions or use your location' }).check(
    z.gte(-90, 'Latitude must be between -90 and 90'),
    z.lte(90, 'Latitude must be between -90 and 90'),
  ),
  longitude: z.number({ error: 'Choose the address from the suggestions or use your location' }).check(
    z.gte(-180, 'Longitude must be between -180 and 180'),
    z.lte(180, 'Longitude must be between -180 and 180'),
  ),
});
export type ServiceAddressInput = z.infer<typeof serviceAddressSchema>;

