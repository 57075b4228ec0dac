import { bookingInputSchema, type BookingInput } from '../../../../shared/schemas/booking';
import { fieldErrors } from '../../../../shared/validation';

export interface BookingFormValues {
  name: string;
  phone: string;
  address: string;
  category: string;
  details: string;
  email: string;
}

/** The fields in the order they appear, so the first invalid one can take focus. */
export const bookingFieldOrder = ['name', 'phone', 'email', 'address', 'category', 'details'] as const;
export type BookingField = (typeof bookingFieldOrder)[number];

export type BookingFormResult = { ok: true; input: BookingInput } | { ok: false; errors: Record<string, string> };

/** Validates the form with the server's own schema from shared/, so it says what the server would; empty details and email are left out. */
export function validateBooking(values: BookingFormValues): BookingFormResult {
  const { details, email, ...rest } = values;
  const candidate = { ...rest, ...(details.trim() ? { details } : {}), ...(email.trim() ? { email } : {}) };
  const parsed = bookingInputSchema.safeParse(candidate);
  return parsed.success ? { ok: true, input: parsed.data } : { ok: false, errors: fieldErrors(parsed.error) };
}

export function firstInvalidField(errors: Record<string, string>): BookingField | undefined {
  return bookingFieldOrder.find((field) => errors[field]);
}
