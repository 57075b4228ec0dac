import * as z from 'zod';
import { isCategorySlug } from '../categories';
import { bookingStatuses } from '../domain/booking-status';

/** A trimmed text field whose "missing" message is the same as its "empty" one. */
const text = (required: string) =>
  z.string({ error: (issue) => (issue.input === undefined ? required : 'Must be text') }).trim();

/** The booking form and POST /api/bookings share this schema (spec section 5, messages included). */
export const bookingInputSchema = z.strictObject(
  {
    name: text('Name is required').min(1, 'Name is required').max(100, 'Name must be at most 100 characters'),
    phone: text('Valid phone number required')
      .min(10, 'Valid phone number required')
      .max(25, 'Valid phone number required')
      .regex(/^\+?[0-9 ().-]+$/, 'Valid phone number required'),
    address: text('Complete address required')
      .min(5, 'Complete address required')
      .max(200, 'Address must be at most 200 characters'),
    category: text('Service category required')
      .min(1, 'Service category required')
      .refine(isCategorySlug, 'Choose one of our service categories'),
    details: text('Details must be text').max(1000, 'Details must be at most 1000 characters').optional(),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? `Unknown field: ${issue.keys.join(', ')}` : undefined) },
);
export type BookingInput = z.infer<typeof bookingInputSchema>;

export const bookingSchema = z.object({
  id: z.string(),
  name: z.string(),
  phone: z.string(),
  address: z.string(),
  category: z.string(),
  details: z.string().optional(),
  status: z.enum(bookingStatuses),
  createdAt: z.string(),
});
export type Booking = z.infer<typeof bookingSchema>;

export const createBookingResponseSchema = bookingSchema;

/**
 * Booking ids are 128 random bits in base64url (22 characters): unguessable, so the id itself is
 * the capability to read the booking from /track.
 */
export const bookingIdPattern = /^[A-Za-z0-9_-]{22}$/;

/** The booking number people read: the last 8 characters of the id. */
export function bookingNumber(id: string): string {
  return id.slice(-8);
}
