import { describe, expect, it } from 'vitest';
import { buildRequestBody, emptyRequestForm, validateRequest, type RequestFormValues } from './request-form';

const filled: RequestFormValues = {
  name: 'Dana Whitfield',
  email: 'Dana@Example.com',
  phoneNumber: '(415) 555-0142',
  service: 'Plumbing',
  location: '742 Evergreen Terrace, Springfield, Oregon',
  description: 'The kitchen sink drains very slowly.',
};

describe('buildRequestBody', () => {
  it('sends 0, 0 and gpsEnabled false when no coordinates are known', () => {
    // Act
    const body = buildRequestBody(filled, null);

    // Assess
    expect(body).toEqual({ ...filled, clientLatitude: 0, clientLongitude: 0, gpsEnabled: false });
  });

  it('sends a GPS fix with gpsEnabled true', () => {
    const body = buildRequestBody(filled, { latitude: 37.7749, longitude: -122.4194, source: 'gps' });
    expect(body).toMatchObject({ clientLatitude: 37.7749, clientLongitude: -122.4194, gpsEnabled: true });
  });

  it("sends a chosen suggestion's coordinates with gpsEnabled false", () => {
    const body = buildRequestBody(filled, { latitude: 44.05, longitude: -123.09, source: 'suggestion' });
    expect(body).toMatchObject({ clientLatitude: 44.05, clientLongitude: -123.09, gpsEnabled: false });
  });
});

describe('validateRequest', () => {
  it('accepts a complete form and normalises it as the server does', () => {
    // Act
    const result = validateRequest(filled, null);

    // Assess
    expect(result.ok).toBe(true);
    expect(result.ok && result.input.email).toBe('dana@example.com');
    expect(result.ok && result.input.gpsEnabled).toBe(false);
  });

  it("gives the shared schema's message for every invalid field", () => {
    // Prepare
    const values = { ...emptyRequestForm(), email: 'not-an-email', phoneNumber: '555', description: 'Leaky' };

    // Act
    const result = validateRequest(values, null);

    // Assess
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual({
      name: 'Name is required',
      email: 'Please enter a valid email address',
      phoneNumber: 'Please enter a valid phone number',
      service: 'Please choose a service',
      location: 'Location is required',
      description: 'Please describe the problem in at least 10 characters',
    });
  });

  it('keeps the service the picker chose in a fresh form', () => {
    expect(emptyRequestForm('Electrical')).toEqual({ ...emptyRequestForm(), service: 'Electrical' });
  });
});
