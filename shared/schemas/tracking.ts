import * as z from 'zod/mini';
import { strictBody } from '../validation';
import { phone, text } from './fields';

/**
 * POST /api/track/lookup: the number a screen showed (a booking's or a request's: the last 8
 * characters of its id, in any case) together with the phone number it was made with.
 */
export const trackLookupSchema = strictBody({
  number: text(
    'Enter the 8-character booking number',
    z.regex(/^[A-Za-z0-9_-]{8}$/, 'Enter the 8-character booking number (letters, digits, - or _)'),
  ),
  phone: phone('Enter the phone number you booked with'),
});
export type TrackLookupInput = z.infer<typeof trackLookupSchema>;

/** What a wrong pair of number and phone answers; the same whether or not the number exists. */
export const BOOKING_NOT_FOUND = 'The booking ID you entered could not be found.';
