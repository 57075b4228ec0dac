import * as z from 'zod/mini';
import { isCategorySlug } from '../categories';
import { strictBody } from '../validation';
import { notCoordinates, phone, text } from './fields';
import { ID_PATTERN } from './id';
import { jobSizeField, requestedTimeField } from './estimate';

export type { Booking } from './views/people';

/** The booking form and POST /api/bookings share this schema, messages included: the form shows what the server would answer. */
export const bookingInputSchema = strictBody({
  name: text('Name is required', z.minLength(1, 'Name is required'), z.maxLength(100, 'Name must be at most 100 characters')),
  phone: phone('Valid phone number required'),
  address: text(
    'Complete address required',
    z.minLength(5, 'Complete address required'),
    z.maxLength(200, 'Address must be at most 200 characters'),
    notCoordinates(),
  ),
  category: text(
    'Service category required',
    z.minLength(1, 'Service category required'),
    z.refine(isCategorySlug, 'Choose one of our service categories'),
  ),
  details: z.optional(text('Details must be text', z.maxLength(1000, 'Details must be at most 1000 characters'))),
  requestedTime: requestedTimeField,
  jobSize: jobSizeField,
});
export type BookingInput = z.infer<typeof bookingInputSchema>;

/**
 * Booking ids are 128 random bits in base64url (22 characters): unguessable, so the id itself is
 * the capability to read the booking from /track.
 */
export const bookingIdPattern = ID_PATTERN;

/** The booking number people read: the last 8 characters of the id. */
export function bookingNumber(id: string): string {
  return id.slice(-8);
}
