import { describe, expect, it } from 'vitest';
import { fieldErrors } from '../validation';
import { bookingInputSchema, bookingNumber } from './booking';

const valid = { name: 'Dana', phone: '+1 415 555 0142', address: '742 Evergreen Terrace', category: 'painting' };

describe('the booking form schema', () => {
  it('accepts a complete booking', () => {
    expect(bookingInputSchema.safeParse(valid).success).toBe(true);
  });

  it('gives each field its own message, one per field', () => {
    const result = bookingInputSchema.safeParse({ name: ' ', phone: 'abc', address: '1 A', category: '' });

    expect(result.success).toBe(false);
    expect(fieldErrors(result.error!)).toEqual({
      name: 'Name is required',
      phone: 'Valid phone number required',
      address: 'Complete address required',
      category: 'Service category required',
    });
  });

  it('takes an optional email, lower-cased and trimmed, and an empty one as none', () => {
    expect(bookingInputSchema.parse({ ...valid, email: ' Dana@Example.com ' }).email).toBe('dana@example.com');
    expect(bookingInputSchema.safeParse({ ...valid, email: '' }).success).toBe(true);
    expect(bookingInputSchema.parse(valid).email).toBeUndefined();
  });

  it('refuses an email that is not one, saying it may be left empty', () => {
    const result = bookingInputSchema.safeParse({ ...valid, email: 'dana-at-example' });

    expect(result.success).toBe(false);
    expect(fieldErrors(result.error!)).toEqual({ email: 'Enter a valid email address, or leave it empty' });
  });

  it('refuses an address mail cannot reach with the reason, as every field we write to does', () => {
    const result = bookingInputSchema.safeParse({ ...valid, email: 'dana@gmial.com' });

    expect(result.success).toBe(false);
    expect(fieldErrors(result.error!).email).toContain('gmail.com');
  });

  it('counts the phone length after trimming', () => {
    expect(bookingInputSchema.safeParse({ ...valid, phone: '   555 0142   ' }).success).toBe(false);
  });

  it('shows the last eight characters as the booking number', () => {
    expect(bookingNumber('abcdefghijklmnopqrstuv')).toBe('opqrstuv');
  });
});
