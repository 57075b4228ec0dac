import * as z from 'zod/mini';
import { isCategorySlug } from '../categories';
import { strictBody } from '../validation';
import { deliverableEmail, notCoordinates, phone, text } from './fields';
import { ID_PATTERN } from './id';
import { jobSizeField, requestedTimeField } from './estimate';

export type { Booking } from './views/people';

export const BOOKING_EMAIL_MESSAGE = 'Enter a valid email address, or leave it empty';

/**
 * An address the product will write to, or nothing: empty (the form's untouched field) is no
 * address, anything else must be one mail can reach, with the same messages as every such field.
 */
const optionalDeliverableEmail = (message: string) => {
  const address = deliverableEmail(message);
  return z.optional(
    z.string({ error: message }).check(
      z.trim(),
      z.toLowerCase(),
      z.superRefine((value, ctx) => {
        if (value === '') return;
        const checked = address.safeParse(value);
        if (!checked.success) ctx.issues.push({ code: 'custom', message: checked.error.issues[0]?.message ?? message, input: value });
      }),
    ),
  );
};

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
  /** Where the confirmation and the tracking link go; optional, and empty means none. */
  email: optionalDeliverableEmail(BOOKING_EMAIL_MESSAGE),
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
