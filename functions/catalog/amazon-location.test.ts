import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { geoPlaces } from '../common/clients';
import { placesAnswer, placesError, placesResultItem } from '../testing/fake-geocoder';
import { createAmazonLocationGeocoder, placesSuggestions, placeToSuggestion } from './amazon-location';

// Before clients.ts is imported: it reads GEO_PLACES_ENDPOINT once, at import.
const places = await vi.hoisted(async () => {
  const { startFakeGeocoder } = await import('../testing/fake-geocoder');
  const fake = await startFakeGeocoder();
  process.env.GEO_PLACES_ENDPOINT = fake.url;
  return fake;
});

afterAll(() => places.close());
afterEach(() => {
  places.answer = () => placesAnswer([]);
  vi.restoreAllMocks();
});

/** The real SDK client of the geocode functions, pointed at the stand-in. */
const geocoder = createAmazonLocationGeocoder({ client: geoPlaces() });

const word = () => `t${Math.random().toString(36).slice(2, 10)}`;

function captureLogs(): () => string {
  const logs = vi.spyOn(console, 'log').mockImplementation(() => undefined);
  return () => logs.mock.calls.map((c) => String(c[0])).join('\n');
}

describe('Amazon Location results', () => {
  it('maps a result to a suggestion: the label, the street line, the town, the state, the postcode and the position', () => {
    // Prepare
    const item = placesResultItem();

    // Act
    const suggestion = placeToSuggestion(item as never);

    // Assess
    expect(suggestion).toEqual({
      displayName: '350 5th Ave, New York, NY 10118-0110, United States',
      latitude: 40.74844,
      longitude: -73.98566,
      address: { houseNumber: '350', road: '5th Ave', neighbourhood: 'Midtown', city: 'New York', state: 'New York', postcode: '10118-0110' },
    });
  });

  it('takes the title when there is no label, the district when there is no sub-district, and leaves out what is missing', () => {
    // Prepare
    const item = placesResultItem({ Title: 'Springfield, IL, United States', Address: { Locality: 'Springfield', District: 'Downtown', Region: { Code: 'IL' } } });

    // Act
    const suggestion = placeToSuggestion(item as never);

    // Assess
    expect(suggestion?.displayName).toBe('Springfield, IL, United States');
    expect(suggestion?.address).toEqual({ city: 'Springfield', neighbourhood: 'Downtown' });
  });

  it('leaves out results without a name or a usable position and keeps at most the limit', () => {
    // Prepare
    const items = [
      placesResultItem({ Position: undefined }),
      placesResultItem({ Position: [-200, 10] }),
      placesResultItem({ Title: ' ', Address: {} }),
      ...Array.from({ length: 7 }, () => placesResultItem()),
    ];

    // Act
    const suggestions = placesSuggestions(items as never, 5);

    // Assess
    expect(suggestions).toHaveLength(5);
    expect(placesSuggestions(undefined, 5)).toEqual([]);
  });
});

describe('the Amazon Location geocoder, through the real SDK client', () => {
  it('searches with Geocode, signed, asking for 5 English results it may store, and maps them', async () => {
    // Prepare
    const q = `350 fifth avenue ${word()}`;
    places.answer = () => placesAnswer([placesResultItem(), placesResultItem({ Position: undefined })]);

    // Act
    const result = await geocoder.search(q);

    // Assess
    expect(result).toEqual({ available: true, suggestions: [placeToSuggestion(placesResultItem() as never)] });
    const sent = places.requests.at(-1)!;
    expect(sent.method).toBe('POST');
    expect(sent.url.pathname).toBe('/v2/geocode');
    expect(sent.body).toEqual({ QueryText: q, MaxResults: 5, Language: 'en', IntendedUse: 'Storage' });
    expect(String(sent.headers.authorization)).toMatch(/^AWS4-HMAC-SHA256 Credential=[^/]+\/\d{8}\/us-east-1\/geo-places\/aws4_request/);
  });

  it('looks a position up with ReverseGeocode, longitude first, one result it may store', async () => {
    // Prepare
    places.answer = () => placesAnswer([placesResultItem({ Address: { Label: '7 Elm Row, Upton UP1 2AB', AddressNumber: '7', Street: 'Elm Row', Locality: 'Upton', PostalCode: 'UP1 2AB' } })]);

    // Act
    const result = await geocoder.reverse(51.50101, -0.14159);

    // Assess
    expect(result).toEqual({
      available: true,
      suggestions: [
        { displayName: '7 Elm Row, Upton UP1 2AB', latitude: 40.74844, longitude: -73.98566, address: { houseNumber: '7', road: 'Elm Row', city: 'Upton', postcode: 'UP1 2AB' } },
      ],
    });
    const sent = places.requests.at(-1)!;
    expect(sent.url.pathname).toBe('/v2/reverse-geocode');
    expect(sent.body).toEqual({ QueryPosition: [-0.14159, 51.50101], MaxResults: 1, Language: 'en', IntendedUse: 'Storage' });
  });

  it('answers an empty list, available, when nothing is there', async () => {
    // Prepare
    places.answer = () => placesAnswer([]);

    // Act
    const result = await geocoder.reverse(0.5, -30.25);

    // Assess
    expect(result).toEqual({ suggestions: [], available: true });
  });

  it.each([
    ['throttled (429), after its one retry', placesError(429, 'ThrottlingException'), 'ThrottlingException', 429, 2],
    ['refused (403, no grant)', placesError(403, 'AccessDeniedException'), 'AccessDeniedException', 403, 1],
    ['a validation error (400)', placesError(400, 'ValidationException'), 'ValidationException', 400, 1],
    ['a server error (500), after its one retry', placesError(500, 'InternalServerException'), 'InternalServerException', 500, 2],
  ])('answers unavailable when %s, logging the error name and status but not the query', async (_what, answer, reason, status, tries) => {
    // Prepare
    const q = `12 refused road ${word()}`;
    places.answer = () => answer;
    const lines = captureLogs();

    // Act
    const result = await geocoder.search(q);

    // Assess
    expect(result).toEqual({ suggestions: [], available: false });
    expect(places.count(q)).toBe(tries);
    const warning = lines().split('\n').find((l) => l.includes('Geocoder unavailable'));
    expect(JSON.parse(warning!)).toMatchObject({ level: 'warn', geocoder: 'amazon-location', operation: 'search', reason, status });
    expect(lines()).not.toContain(q);
    expect(lines()).not.toContain('from the stand-in');
  });

  it('answers unavailable when the answer is not JSON', async () => {
    // Prepare
    places.answer = () => ({ raw: '<html>maintenance</html>', headers: { 'x-amz-geo-pricing-bucket': 'Core' } });

    // Act
    const result = await geocoder.search(`broken ${word()}`);

    // Assess
    expect(result).toEqual({ suggestions: [], available: false });
  });

  it('gives up when the service does not answer in time, however many tries were left', async () => {
    // Prepare
    const q = `slow lane ${word()}`;
    const impatient = createAmazonLocationGeocoder({ client: geoPlaces(), timeoutMs: 200 });
    places.answer = () => ({ ...placesAnswer([placesResultItem()]), delayMs: 5000 });
    const lines = captureLogs();

    // Act
    const result = await impatient.search(q);

    // Assess
    expect(result).toEqual({ suggestions: [], available: false });
    expect(places.count(q)).toBe(1);
    expect(lines()).toMatch(/"reason":"(AbortError|TimeoutError)"/);
  });

  it('answers unavailable when the service cannot be reached', async () => {
    // Prepare
    await places.stop();

    // Act
    const result = await geocoder.reverse(10.5, 20.25).finally(() => places.reopen());

    // Assess
    expect(result).toEqual({ suggestions: [], available: false });
  });
});
