import { describe, expect, it } from 'vitest';
import { fieldsForForm, hiredRequest, validateHire } from './hire-form';
import { initialHireValues, serviceForSpecialties, type HireFormValues } from './hire-values';

const valid: HireFormValues = {
  name: 'Dana Whitfield',
  email: 'Dana@Example.com',
  phoneNumber: '(415) 555-0142',
  service: 'Plumbing',
  location: '742 Evergreen Terrace, Springfield',
  description: 'The kitchen sink leaks under the cabinet.',
};

const fix = { latitude: 37.77, longitude: -122.42, accuracy: 10, timestamp: 0 };

describe('serviceForSpecialties', () => {
  it('maps a category onto the service of the same name', () => {
    expect(serviceForSpecialties(['Plumbing', 'Electrical'])).toBe('Plumbing');
    expect(serviceForSpecialties(['cleaning'])).toBe('Cleaning');
  });

  it('leaves the choice to the customer when no service has that name', () => {
    expect(serviceForSpecialties(['Construction'])).toBe('');
    expect(serviceForSpecialties(['Handyman'])).toBe('');
    expect(serviceForSpecialties([])).toBe('');
  });
});

describe('initialHireValues', () => {
  it('starts from the latest request, the worker specialty and the panel location', () => {
    // Prepare
    const latest = { name: 'Dana', email: 'dana@example.com', phoneNumber: '4155550142' };
    // Act
    const values = initialHireValues({ specialties: ['Painting'] }, latest, '12 Oak St');
    // Assess
    expect(values).toEqual({ ...latest, service: 'Painting', location: '12 Oak St', description: '' });
  });

  it('starts blank for a first-time customer', () => {
    expect(initialHireValues({ specialties: ['Handyman'] }, undefined, '')).toEqual({
      name: '',
      email: '',
      phoneNumber: '',
      service: '',
      location: '',
      description: '',
    });
  });
});

describe('validateHire', () => {
  it('sends the coordinates of a fix with gpsEnabled', () => {
    // Act
    const result = validateHire(valid, 'worker-1', fix);
    // Assess
    expect(result).toEqual({
      ok: true,
      input: { ...valid, email: 'dana@example.com', workerId: 'worker-1', clientLatitude: 37.77, clientLongitude: -122.42, gpsEnabled: true },
    });
  });

  it('sends no coordinates without a fix', () => {
    // Act
    const result = validateHire(valid, 'worker-1', null);
    // Assess
    expect(result.ok && result.input).toMatchObject({ gpsEnabled: false });
    expect(result.ok && 'clientLatitude' in result.input).toBe(false);
  });

  it('gives the schema messages per field', () => {
    // Act
    const result = validateHire({ name: ' ', email: 'nope', phoneNumber: '555', service: '', location: '', description: 'short' }, 'w', null);
    // Assess
    expect(result).toEqual({
      ok: false,
      errors: {
        name: 'Name is required',
        email: 'Please enter a valid email address',
        phoneNumber: 'Please enter a valid phone number',
        service: 'Please choose a service',
        location: 'Location is required',
        description: 'Please describe the problem in at least 10 characters',
      },
    });
  });
});

describe('hiredRequest', () => {
  const view = { id: 'req-1', status: 'Pending' };

  it('reads the request out of the answer', () => {
    expect(hiredRequest({ success: true, request: view })).toEqual(view);
    expect(hiredRequest(view)).toEqual(view);
  });

  it('gives null for an answer without a request', () => {
    expect(hiredRequest(null)).toBeNull();
    expect(hiredRequest({ success: true })).toBeNull();
  });
});

describe('fieldsForForm', () => {
  it('keeps form fields under themselves and gathers the rest in the form message', () => {
    // Act
    const placed = fieldsForForm({ email: 'Please enter a valid email address', workerId: 'Choose a worker to hire', _: 'Unknown field: x' });
    // Assess
    expect(placed).toEqual({ email: 'Please enter a valid email address', _: 'Choose a worker to hire Unknown field: x' });
  });

  it('adds no form message when every field is on the form', () => {
    expect(fieldsForForm({ name: 'Name is required' })).toEqual({ name: 'Name is required' });
  });
});
