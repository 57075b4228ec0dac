import { describe, expect, it } from 'vitest';
import { firstInvalidField, validateBooking } from './booking-form';

const valid = { name: 'Dana Whitfield', phone: '(415) 555-0142', address: '742 Evergreen Terrace', category: 'plumbing', details: '' };

describe('validateBooking', () => {
  it('accepts a valid booking and leaves out empty details', () => {
    expect(validateBooking(valid)).toEqual({
      ok: true,
      input: { name: 'Dana Whitfield', phone: '(415) 555-0142', address: '742 Evergreen Terrace', category: 'plumbing' },
    });
    const withDetails = validateBooking({ ...valid, details: ' Slow drain ' });
    expect(withDetails.ok && withDetails.input.details).toBe('Slow drain');
  });

  it('gives a message per field and the first invalid field in form order', () => {
    const result = validateBooking({ name: '  ', phone: '555', address: 'Elm', category: '', details: '' });
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
