import { describe, expect, it } from 'vitest';
import { firstInvalidField, validateBooking } from './booking-form';

const valid = { name: 'Dana Whitfield', phone: '(415) 555-0142', address: '742 Evergreen Terrace', category: 'plumbing', details: '', email: '' };

describe('validateBooking', () => {
  it('accepts a valid booking and leaves out empty details', () => {
    expect(validateBooking(valid)).toEqual({
      ok: true,
      input: { name: 'Dana Whitfield', phone: '(415) 555-0142', address: '742 Evergreen Terrace', category: 'plumbing' },
    });
    const withDetails = validateBooking({ ...valid, details: ' Slow drain ' });
    expect(withDetails.ok && withDetails.input.details).toBe('Slow drain');
  });

  it('sends an email only when one is typed, lower case, and says when it is not one', () => {
    const typed = validateBooking({ ...valid, email: ' Dana@Example.com ' });
    expect(typed.ok && typed.input.email).toBe('dana@example.com');
    const blank = validateBooking({ ...valid, email: '   ' });
    expect(blank.ok && 'email' in blank.input).toBe(false);
    const wrong = validateBooking({ ...valid, email: 'dana-at-example' });
    expect(wrong).toEqual({ ok: false, errors: { email: 'Enter a valid email address, or leave it empty' } });
    expect(firstInvalidField({ email: 'x', address: 'y' })).toBe('email');
  });

  it('gives a message per field and the first invalid field in form order', () => {
    const result = validateBooking({ name: '  ', phone: '555', address: 'Elm', category: '', details: '', email: '' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toMatchObject({
      name: 'Name is required',
      phone: 'Valid phone number required',
      address: 'Complete address required',
      category: 'Service category required',
    });
    expect(firstInvalidField(result.errors)).toBe('name');
    expect(firstInvalidField({ address: 'x', category: 'y' })).toBe('address');
    expect(firstInvalidField({ _: 'form' })).toBeUndefined();
  });
});
