import * as z from 'zod/mini';
import { isCategorySlug } from '../categories';
import type { BookingStatus } from '../domain/booking-status';
import { strictBody } from '../validation';
import { notCoordinates, phone, text } from './fields';

/** The booking form and POST /api/bookings share this schema (spec section 5, messages included). */
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
});
export type BookingInput = z.infer<typeof bookingInputSchema>;

/** What GET /api/bookings/{id} answers. A plain type: Lambdas build no schema they never parse with. */
export interface Booking {
  id: string;
  name: string;
  phone: string;
  address: string;
  category: string;
  details?: string;
  status: BookingStatus;
  /** Where finding a professional stands: 'no_worker_available' once every offer went unanswered. */
  dispatch: 'searching' | 'assigned' | 'no_worker_available' | 'done';
  createdAt: string;
}

/**
 * Booking ids are 128 random bits in base64url (22 characters): unguessable, so the id itself is
 * the capability to read the booking from /track.
 */
export const bookingIdPattern = /^[A-Za-z0-9_-]{22}$/;

/** The booking number people read: the last 8 characters of the id. */
export function bookingNumber(id: string): string {
  return id.slice(-8);
}
