import { describe, expect, it, vi } from 'vitest';
import { coordinatesFrom, geocoderFor, normaliseQuery, reverseCacheKey, searchQueryFrom } from './geocoder';
import { reverseSuggestions, searchSuggestions, toSuggestion } from './nominatim';

describe('geocoder inputs', () => {
  it('normalises a query by trimming, collapsing spaces and lower-casing', () => {
    expect(normaliseQuery('  10   Downing\tStreet \n')).toBe('10 downing street');
  });

  it('counts the length of a query after normalising it', () => {
    expect(() => searchQueryFrom({ q: '   ab    ' })).toThrow(/at least 3 characters/);
    expect(searchQueryFrom({ q: ' A    b ' })).toBe('a b');
    expect(searchQueryFrom({ q: `${'x'.repeat(199)}  ` })).toHaveLength(199);
  });

  it('rounds coordinates to 5 decimals and keys reverse lookups by them', () => {
    const { lat, lng } = coordinatesFrom({ lat: ' 40.748441 ', lng: '-73.9856589' });

    expect({ lat, lng }).toEqual({ lat: 40.74844, lng: -73.98566 });
    expect(reverseCacheKey(lat, lng)).toBe('rev:40.74844,-73.98566');
    expect(reverseCacheKey(...Object.values(coordinatesFrom({ lat: '-0.000001', lng: '0' })) as [number, number])).toBe('rev:0,0');
  });

  it('accepts the edges of the globe and refuses beyond them', () => {
    expect(coordinatesFrom({ lat: '-90', lng: '180' })).toEqual({ lat: -90, lng: 180 });
    expect(() => coordinatesFrom({ lat: '90.00001', lng: '0' })).toThrow(/lat must be a latitude/);
    expect(() => coordinatesFrom({ lat: '0', lng: 'Infinity' })).toThrow(/lng must be a longitude/);
  });
});

describe('Nominatim answers', () => {
  const place = (address: Record<string, string>) => ({ display_name: 'Somewhere', lat: '1.5', lon: '2.5', address });

  it('takes the city from city, else town, else village', () => {
    expect(toSuggestion(place({ city: 'C', town: 'T', village: 'V' }))?.address.city).toBe('C');
    expect(toSuggestion(place({ town: 'T', village: 'V' }))?.address.city).toBe('T');
    expect(toSuggestion(place({ village: 'V' }))?.address.city).toBe('V');
    expect(toSuggestion(place({}))?.address).toEqual({});
  });

  it('keeps at most 5 search results and drops places without a name or position', () => {
    const places = [...Array.from({ length: 7 }, () => place({})), { lat: '1', lon: '1' }];

    expect(searchSuggestions(places)).toHaveLength(5);
    expect(searchSuggestions([{ display_name: 'x', lat: '91', lon: '0' }])).toEqual([]);
    expect(searchSuggestions({ not: 'a list' })).toBeUndefined();
  });

  it('reads a reverse answer as one place, nothing there, or not an answer', () => {
    expect(reverseSuggestions(place({ road: 'R' }))).toHaveLength(1);
    expect(reverseSuggestions({ error: 'Unable to geocode' })).toEqual([]);
    expect(reverseSuggestions([place({})])).toBeUndefined();
    expect(reverseSuggestions('text')).toBeUndefined();
  });
});

describe('the geocoder the settings choose', () => {
  it('answers unavailable at once, asking nothing on the network and logging nothing, when none is chosen', async () => {
    // Prepare
    const network = vi.spyOn(globalThis, 'fetch');
    const logs = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const geocoder = geocoderFor({ GEOCODER: 'none', GEOCODER_URL: undefined, SUPPORT_EMAIL: 'support@fixly.app' });

    // Act
    const results = [await geocoder.search('10 downing street'), await geocoder.reverse(51.50344, -0.12770)];

    // Assess
    expect(results).toEqual([
      { suggestions: [], available: false },
      { suggestions: [], available: false },
    ]);
    expect(network).not.toHaveBeenCalled();
    expect(logs).not.toHaveBeenCalled();
    vi.restoreAllMocks();
  });
});
