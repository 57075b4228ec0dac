import { describe, expect, it } from 'vitest';
import type { AddressSuggestion } from '../../../../shared/schemas/job';
import { queryKeyUrl } from '../../lib/endpoint';
import { queryKeys } from '../../lib/query-keys';
import {
  ADDRESS_LOOKUP_FAILED_TEXT,
  addressSearchQuery,
  formatAddress,
  geolocationErrorToast,
  gpsOutcome,
  nextActiveIndex,
} from './address';

function suggestion(address: AddressSuggestion['address'], displayName = '1 Full Display Name, Somewhere'): AddressSuggestion {
  return { displayName, latitude: 37.7749, longitude: -122.4194, address };
}

describe('addressSearchQuery', () => {
  it('searches only from 3 characters, ignoring surrounding spaces', () => {
    // Prepare
    const inputs = ['', 'ab', '  ab  ', 'abc', '  12 Main  '];

    // Act
    const queries = inputs.map(addressSearchQuery);

    // Assess
    expect(queries).toEqual([null, null, null, 'abc', '12 Main']);
  });

  it('encodes the query and the coordinates into the geocode URLs', () => {
    expect(queryKeyUrl(queryKeys.addressSearch('12 Main St & 3rd'))).toBe('/api/geocode?q=12%20Main%20St%20%26%203rd');
    expect(queryKeyUrl(queryKeys.reverseGeocode({ lat: 37.7749, lng: -122.4194 }))).toBe('/api/geocode/reverse?lat=37.7749&lng=-122.4194');
  });
});

describe('formatAddress', () => {
  it("formats a full address as 'number road, city, state'", () => {
    // Prepare
    const full = suggestion({ houseNumber: '742', road: 'Evergreen Terrace', city: 'Springfield', state: 'Oregon', postcode: '97403' });

    // Act
    const text = formatAddress(full);

    // Assess
    expect(text).toBe('742 Evergreen Terrace, Springfield, Oregon');
  });

  it('skips the parts the geocoder did not give', () => {
    expect(formatAddress(suggestion({ road: 'Market Street', city: 'San Francisco', state: 'California' }))).toBe(
      'Market Street, San Francisco, California',
    );
    expect(formatAddress(suggestion({ houseNumber: '5', city: 'Austin' }))).toBe('5, Austin');
    expect(formatAddress(suggestion({ state: 'Texas' }))).toBe('Texas');
  });

  it('falls back to the display name when no part is known', () => {
    expect(formatAddress(suggestion({ postcode: '94103' }, 'Somewhere, CA 94103'))).toBe('Somewhere, CA 94103');
  });
});

describe('gpsOutcome', () => {
  it("fills the box with the reverse lookup's first suggestion", () => {
    // Prepare
    const found = {
      available: true,
      suggestions: [
        suggestion({ houseNumber: '1', road: 'Dr Carlton B Goodlett Pl', city: 'San Francisco', state: 'California' }),
        suggestion({ city: 'Elsewhere' }),
      ],
    };

    // Act
    const outcome = gpsOutcome(37.7749, -122.4194, found, '');

    // Assess
    expect(outcome).toEqual({
      text: '1 Dr Carlton B Goodlett Pl, San Francisco, California',
      coordinates: { latitude: 37.7749, longitude: -122.4194, source: 'gps' },
      note: null,
    });
  });

  it('keeps the position but not the coordinates as text when the geocoder is unavailable', () => {
    // Prepare
    const unavailable = { available: false, suggestions: [] };

    // Act
    const outcome = gpsOutcome(40.7128, -74.006, unavailable, '');

    // Assess
    expect(outcome.text).toBe('');
    expect(outcome.text).not.toContain('40.712800');
    expect(outcome.coordinates).toEqual({ latitude: 40.7128, longitude: -74.006, source: 'gps' });
    expect(outcome.note).toBe('We found your position but could not look up its address. Please type your street address.');
  });

  it('leaves what the customer already typed when the lookup failed or found nothing', () => {
    expect(gpsOutcome(40.7128, -74.006, null, '12 Oak St').text).toBe('12 Oak St');
    expect(gpsOutcome(40.7128, -74.006, { available: true, suggestions: [] }, 'Apt 4').text).toBe('Apt 4');
    expect(ADDRESS_LOOKUP_FAILED_TEXT).toMatch(/type your street address/);
  });
});

describe('geolocationErrorToast', () => {
  it('names each browser failure in words a customer understands, and offers typing the address when access is denied', () => {
    // Act
    const [denied, unavailable, timeout] = [1, 2, 3].map(geolocationErrorToast);

    // Assess
    expect(denied!.title).toBe('Location Access Denied');
    expect(denied!.description).toMatch(/type your address/);
    expect(unavailable!.title).toBe('Location Unavailable');
    expect(timeout!.title).toBe('Location Timeout');
  });
});

describe('nextActiveIndex', () => {
  it('moves down and up through the suggestions and wraps at both ends', () => {
    expect(nextActiveIndex('ArrowDown', -1, 3)).toBe(0);
    expect(nextActiveIndex('ArrowDown', 0, 3)).toBe(1);
    expect(nextActiveIndex('ArrowDown', 2, 3)).toBe(0);
    expect(nextActiveIndex('ArrowUp', -1, 3)).toBe(2);
    expect(nextActiveIndex('ArrowUp', 0, 3)).toBe(2);
    expect(nextActiveIndex('ArrowUp', 2, 3)).toBe(1);
  });

  it('ignores other keys and an empty list', () => {
    expect(nextActiveIndex('Home', 1, 3)).toBeUndefined();
    expect(nextActiveIndex('a', 1, 3)).toBeUndefined();
    expect(nextActiveIndex('ArrowDown', -1, 0)).toBeUndefined();
  });
});
