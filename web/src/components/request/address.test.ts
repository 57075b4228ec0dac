import { describe, expect, it } from 'vitest';
import type { AddressSuggestion } from '../../../../shared/schemas/job';
import {
  addressSearchQuery,
  addressSearchUrl,
  detectedLocationText,
  formatAddress,
  formatCoordinates,
  geolocationErrorToast,
  nextActiveIndex,
  reverseGeocodeUrl,
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
    expect(addressSearchUrl('12 Main St & 3rd')).toBe('/api/geocode?q=12%20Main%20St%20%26%203rd');
    expect(reverseGeocodeUrl(37.7749, -122.4194)).toBe('/api/geocode/reverse?lat=37.7749&lng=-122.4194');
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

describe('detectedLocationText', () => {
  it("uses the reverse lookup's first suggestion", () => {
    // Prepare
    const found = [
      suggestion({ houseNumber: '1', road: 'Dr Carlton B Goodlett Pl', city: 'San Francisco', state: 'California' }),
      suggestion({ city: 'Elsewhere' }),
    ];

    // Act
    const text = detectedLocationText(37.7749, -122.4194, found);

    // Assess
    expect(text).toBe('1 Dr Carlton B Goodlett Pl, San Francisco, California');
  });

  it('puts the coordinates with 6 decimals in the box when the lookup failed or found nothing', () => {
    expect(detectedLocationText(37.7749, -122.4194, null)).toBe('37.774900, -122.419400');
    expect(detectedLocationText(37.7749, -122.4194, [])).toBe('37.774900, -122.419400');
    expect(formatCoordinates(-33.8688197, 151.2092961)).toBe('-33.868820, 151.209296');
  });
});

describe('geolocationErrorToast', () => {
  it('names each browser failure as the spec does, and offers typing the address when access is denied', () => {
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
