import * as z from 'zod/mini';
import { requestServices } from '../domain/requests';
import { strictBody } from '../validation';
import { deliverableEmail, notCoordinates, phone, text } from './fields';
import { jobSizeField, requestedTimeField, workerCountField, zonedTime } from './estimate';

export { requestNumber, requestServices, requestStatuses, type RequestService, type RequestStatus } from '../domain/requests';

/**
 * The home page's request form and POST /api/requests. The messages for name, service and
 * location say what to do. Coordinates 0/0 with gpsEnabled false mean "no fix" (the form always
 * sends coordinates, so it sends zeros when the browser gave none).
 */
export const serviceRequestSchema = strictBody({
  name: text('Name is required', z.minLength(1, 'Name is required'), z.maxLength(100, 'Name must be at most 100 characters')),
  email: deliverableEmail('Please enter a valid email address'),
  phoneNumber: phone('Please enter a valid phone number'),
  service: z.enum(requestServices, { error: 'Please choose a service' }),
  location: text(
    'Location is required',
    z.minLength(1, 'Location is required'),
    z.maxLength(200, 'Location must be at most 200 characters'),
    notCoordinates(),
  ),
  description: text(
    'Please describe the problem in at least 10 characters',
    z.minLength(10, 'Please describe the problem in at least 10 characters'),
    z.maxLength(2000, 'Description must be at most 2000 characters'),
  ),
  clientLatitude: z.optional(
    z.number({ error: 'Latitude must be a number' }).check(
      z.gte(-90, 'Latitude must be between -90 and 90'),
      z.lte(90, 'Latitude must be between -90 and 90'),
    ),
  ),
  clientLongitude: z.optional(
    z.number({ error: 'Longitude must be a number' }).check(
      z.gte(-180, 'Longitude must be between -180 and 180'),
      z.lte(180, 'Longitude must be between -180 and 180'),
    ),
  ),
  gpsEnabled: z.optional(z.boolean({ error: 'gpsEnabled must be true or false' })),
  /** When the customer wants the pro (an ISO instant, within 14 days); absent or null: as soon as possible. */
  requestedTime: requestedTimeField,
  jobSize: jobSizeField,
  /** Pros of the trade wanted together (1-5); absent means one. */
  workerCount: workerCountField,
  /** Accepted for older clients and ignored: the server computes the estimate (shared/domain/estimate.ts). */
  baseAmount: z.optional(
    z.number({ error: 'baseAmount must be a number' }).check(
      z.gte(0, 'baseAmount cannot be negative'),
      z.lte(1_000_000, 'baseAmount is too large'),
    ),
  ),
});
export type ServiceRequestInput = z.infer<typeof serviceRequestSchema>;

/**
 * POST /api/requests/{id}/reschedule: the new start, an ISO instant (in the future and at most 14
 * days ahead, checked by the handler against its clock, as at creation).
 */
export const rescheduleSchema = strictBody({
  requestedTime: text('Choose the new date and time', z.minLength(1, 'Choose the new date and time'), z.maxLength(64, 'requestedTime is too long'), zonedTime),
});
export type RescheduleInput = z.infer<typeof rescheduleSchema>;

