import { describe, expect, it } from 'vitest';
import type { AddressSuggestion } from '../../../../shared/schemas/job';
import { queryKeyUrl } from '../../lib/endpoint';
import { queryKeys } from '../../lib/query-keys';
import {
  PANEL_POSITION_OPTIONS,
  accuracyText,
  addressOf,
  coordinatesText,
  formatAddress,
  isPosition,
  locationErrorKind,
  locationErrorMessages,
  locationText,
  manualLocation,
  nextLookupPoint,
  validateManualAddress,
} from './location';

const suggestion = (overrides: Partial<AddressSuggestion>): AddressSuggestion => ({
  displayName: '742, Evergreen Terrace, Springfield, Oregon, 97475, United States',
  latitude: 44.05,
  longitude: -123.09,
  address: { houseNumber: '742', road: 'Evergreen Terrace', city: 'Springfield', state: 'Oregon', postcode: '97475' },
  ...overrides,
});

const fix = { latitude: 44.0462, longitude: -123.0220335, accuracy: 12, timestamp: 0 };

describe('PANEL_POSITION_OPTIONS', () => {
  it('asks for high accuracy, waits 30 s and takes a fix up to a minute old', () => {
    expect(PANEL_POSITION_OPTIONS).toEqual({ enableHighAccuracy: true, timeout: 30_000, maximumAge: 60_000 });
  });
});

describe('locationErrorKind', () => {
  it('names the browser error codes', () => {
    expect(locationErrorKind(1)).toBe('denied');
    expect(locationErrorKind(2)).toBe('unavailable');
    expect(locationErrorKind(3)).toBe('timeout');
    expect(locationErrorKind(99)).toBe('unavailable');
  });
});

describe('locationErrorMessages', () => {
  it('gives each failure a title and a text that says what to do next', () => {
    expect(`${locationErrorMessages.unsupported.title} - ${locationErrorMessages.unsupported.description}`).toMatch(
      /^GPS Not Supported - Your browser doesn't support location services/,
    );
    expect(locationErrorMessages.denied.title).toBe('Location Access Denied');
    expect(locationErrorMessages.denied.description).toMatch(/needs location access/);
    expect(locationErrorMessages.unavailable.title).toBe('Location Unavailable');
    expect(locationErrorMessages.unavailable.description).toMatch(/cannot detect your location/);
    expect(locationErrorMessages.timeout.title).toBe('Location Timeout');
    expect(locationErrorMessages.timeout.description).toMatch(/location timeout/);
  });

  it('offers a typed address in every case', () => {
    for (const { description } of Object.values(locationErrorMessages)) expect(description).toMatch(/enter your address/i);
  });
});

describe('formatAddress', () => {
  it('writes number road, city, state', () => {
    expect(formatAddress(suggestion({}))).toBe('742 Evergreen Terrace, Springfield, Oregon');
  });

  it('leaves out missing parts', () => {
    expect(formatAddress(suggestion({ address: { road: 'Main Street', city: 'Eugene' } }))).toBe('Main Street, Eugene');
  });

  it('falls back to the display name without a road or city', () => {
    expect(formatAddress(suggestion({ address: { state: 'Oregon' } }))).toBe(suggestion({}).displayName);
  });
});

describe('addressOf', () => {
  it('takes the first suggestion of an answered lookup', () => {
    expect(addressOf({ available: true, suggestions: [suggestion({})] })).toBe('742 Evergreen Terrace, Springfield, Oregon');
  });

  it('gives null when the geocoder was unreachable, found nothing or has not answered', () => {
    expect(addressOf({ available: false, suggestions: [suggestion({})] })).toBeNull();
    expect(addressOf({ available: true, suggestions: [] })).toBeNull();
    expect(addressOf(undefined)).toBeNull();
  });
});

describe('the reverse geocoding key', () => {
  it('asks our own reverse geocoding route with 6 decimals', () => {
    expect(queryKeyUrl(queryKeys.reverseGeocode({ lat: 37.7792999, lng: -122.4193 }))).toBe('/api/geocode/reverse?lat=37.7793&lng=-122.4193');
  });
});

describe('coordinatesText and accuracyText', () => {
  it('writes 6 decimals and whole metres', () => {
    expect(coordinatesText(44.0462, -123.0220335)).toBe('44.046200, -123.022034');
    expect(accuracyText(12.6)).toBe('±13 m');
  });
});

describe('locationText', () => {
  it('prefers the looked-up address of a fix', () => {
    expect(locationText(fix, '742 Evergreen Terrace', 'typed')).toBe('742 Evergreen Terrace');
  });

  it('leaves the address empty, never the coordinates, when the lookup failed', () => {
    // Act
    const text = locationText(fix, null, '');

    // Assess
    expect(text).toBe('');
    expect(text).not.toContain('44.046200');
  });

  it('uses the typed address without a fix', () => {
    expect(locationText(null, null, '12 Oak St')).toBe('12 Oak St');
  });
});

describe('validateManualAddress', () => {
  it('accepts a trimmed address', () => {
    expect(validateManualAddress('  12 Oak St ')).toEqual({ ok: true, address: '12 Oak St' });
  });

  it('refuses a blank one with "Address Required"', () => {
    expect(validateManualAddress('   ')).toEqual({ ok: false, message: 'Address Required - Please enter your address' });
  });
});

describe('manualLocation and isPosition', () => {
  it('stores a typed address at 0, 0 with accuracy 0, which is not a position', () => {
    // Prepare / Act
    const typed = manualLocation('12 Oak St', 1_000);

    // Assess
    expect(typed).toEqual({ latitude: 0, longitude: 0, accuracy: 0, timestamp: 1_000, address: '12 Oak St', source: 'manual' });
    expect(isPosition(typed)).toBe(false);
    expect(isPosition(fix)).toBe(true);
    expect(isPosition(null)).toBe(false);
  });
});

describe('nextLookupPoint', () => {
  it('keeps the looked-up point until the fix moves more than 50 m away', () => {
    // Prepare
    const first = nextLookupPoint(null, fix);
    const near = { ...fix, latitude: fix.latitude + 0.0003 }; // about 33 m north
    const far = { ...fix, latitude: fix.latitude + 0.0006 }; // about 67 m north

    // Act / Assess
    expect(first).toEqual({ lat: fix.latitude, lng: fix.longitude });
    expect(nextLookupPoint(first, near)).toBe(first);
    expect(nextLookupPoint(first, far)).toEqual({ lat: far.latitude, lng: far.longitude });
    expect(nextLookupPoint(first, null)).toBeNull();
    expect(nextLookupPoint(first, manualLocation('12 Oak St', 0))).toBeNull();
  });
});
