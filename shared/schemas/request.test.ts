import { describe, expect, it } from 'vitest';
import { validate } from '../validation';
import { ZONED_TIME_MESSAGE } from './estimate';
import { requestNumber, rescheduleSchema, serviceRequestSchema } from './request';

const valid = {
  name: 'Sam Okafor',
  email: 'Sam@Example.com',
  phoneNumber: '(503) 555-0133',
  service: 'Plumbing',
  location: '18 Alder Street, Portland',
  description: 'The water heater leaks from the bottom valve.',
  clientLatitude: 0,
  clientLongitude: 0,
  gpsEnabled: false,
};

describe('the service request schema', () => {
  it('accepts what the request form sends, lower-casing the email', () => {
    const result = validate(serviceRequestSchema, valid);

    expect(result).toMatchObject({ success: true, data: { email: 'sam@example.com' } });
  });

  it('takes a requested time only with its zone: Z or an offset', () => {
    for (const requestedTime of ['2026-12-01T10:00:00Z', '2026-12-01T10:00:00.000Z', '2026-12-01T10:00:00-06:00', '2026-12-01T10:00+05:30']) {
      expect(validate(serviceRequestSchema, { ...valid, requestedTime })).toMatchObject({ success: true });
      expect(validate(rescheduleSchema, { requestedTime })).toMatchObject({ success: true });
    }
    for (const requestedTime of ['2026-12-01T10:00:00', '2026-12-01T10:00', '2026-12-01', 'Tue Dec 01 2026 10:00:00']) {
      expect(validate(serviceRequestSchema, { ...valid, requestedTime })).toEqual({ success: false, fields: { requestedTime: ZONED_TIME_MESSAGE } });
      expect(validate(rescheduleSchema, { requestedTime })).toEqual({ success: false, fields: { requestedTime: ZONED_TIME_MESSAGE } });
    }
  });

  it('gives its own message for a bad email, phone and description', () => {
    const result = validate(serviceRequestSchema, { ...valid, email: 'nope', phoneNumber: '555', description: 'leak' });

    expect(result).toEqual({
      success: false,
      fields: {
        email: 'Please enter a valid email address',
        phoneNumber: 'Please enter a valid phone number',
        description: 'Please describe the problem in at least 10 characters',
      },
    });
  });

  it('says what to do when name, service or location are missing', () => {
    const { name: _n, service: _s, location: _l, ...rest } = valid;

    const result = validate(serviceRequestSchema, rest);

    expect(result).toMatchObject({
      success: false,
      fields: { name: 'Name is required', service: 'Please choose a service', location: 'Location is required' },
    });
  });

  it('bounds coordinates and refuses a negative base amount', () => {
    const result = validate(serviceRequestSchema, { ...valid, clientLatitude: 91, clientLongitude: -181, baseAmount: -1 });

    expect(result).toMatchObject({
      success: false,
      fields: {
        clientLatitude: 'Latitude must be between -90 and 90',
        clientLongitude: 'Longitude must be between -180 and 180',
        baseAmount: 'baseAmount cannot be negative',
      },
    });
  });

  it('shows the request id as its last eight characters in upper case', () => {
    expect(requestNumber('abcdefghijklmnopqrstuv')).toBe('OPQRSTUV');
  });
});
