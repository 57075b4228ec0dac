import { describe, expect, it } from 'vitest';
import type { AddressSuggestion } from '../../../../shared/schemas/job';
import { addressOf, formatAddress, locationErrorKind, locationText, validateManualAddress } from './location';

const suggestion = (overrides: Partial<AddressSuggestion>): AddressSuggestion => ({
  displayName: '742, Evergreen Terrace, Springfield, Oregon, 97475, United States',
  latitude: 44.05,
  longitude: -123.09,
  address: { houseNumber: '742', road: 'Evergreen Terrace', city: 'Springfield', state: 'Oregon', postcode: '97475' },
  ...overrides,
});

const fix = { latitude: 44.0462, longitude: -123.0220335, accuracy: 12, timestamp: 0 };

describe('locationErrorKind', () => {
  it('names the browser error codes', () => {
    expect(locationErrorKind(1)).toBe('denied');
    expect(locationErrorKind(2)).toBe('unavailable');
    expect(locationErrorKind(3)).toBe('timeout');
    expect(locationErrorKind(99)).toBe('unavailable');
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

describe('locationText', () => {
  it('prefers the looked-up address of a fix', () => {
    expect(locationText(fix, '742 Evergreen Terrace', 'typed')).toBe('742 Evergreen Terrace');
  });

  it('uses the coordinates with 6 decimals when the lookup failed', () => {
    expect(locationText(fix, null, '')).toBe('44.046200, -123.022034');
  });

  it('uses the typed address without a fix', () => {
    expect(locationText(null, null, '12 Oak St')).toBe('12 Oak St');
  });
});

describe('validateManualAddress', () => {
  it('accepts a trimmed address', () => {
    expect(validateManualAddress('  12 Oak St ')).toEqual({ ok: true, address: '12 Oak St' });
  });

  it('refuses a blank one with the spec message', () => {
    expect(validateManualAddress('   ')).toEqual({ ok: false, message: 'Address Required - Please enter your address' });
  });
});
