import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { GeocodeResult } from '../../shared/schemas/job';
import { keys } from '../../shared/entities';
import { dynamo, tableName } from '../common/clients';
import { invoke, sampleEvent } from '../testing/events';
import { placesAnswer, placesError, placesResultItem } from '../testing/fake-geocoder';
import { handler as reverseHandler } from './reverse-geocode';
import { handler as searchHandler } from './search-addresses';

/**
 * Both geocode routes as the cloud runs them by default: GEOCODER=amazon-location, the real Places
 * SDK client, the table cache. The Nominatim adapter's own cases are in search-addresses.test.ts and
 * reverse-geocode.test.ts.
 */

// Before the handlers are imported: they read GEOCODER and GEO_PLACES_ENDPOINT once, at import.
const places = await vi.hoisted(async () => {
  const { startFakeGeocoder } = await import('../testing/fake-geocoder');
  const fake = await startFakeGeocoder();
  process.env.GEOCODER = 'amazon-location';
  process.env.GEO_PLACES_ENDPOINT = fake.url;
  delete process.env.GEOCODER_URL;
  return fake;
});

afterAll(() => places.close());
afterEach(() => {
  places.answer = () => placesAnswer([]);
  vi.restoreAllMocks();
});

const unique = () => `t${Math.random().toString(36).slice(2, 10)}`;

function search(q: string): APIGatewayProxyEventV2 {
  const event = sampleEvent('search-addresses');
  return { ...event, rawQueryString: new URLSearchParams({ q }).toString(), queryStringParameters: { q } };
}

function reverse(lat: string, lng: string): APIGatewayProxyEventV2 {
  const event = sampleEvent('reverse-geocode');
  return { ...event, rawQueryString: new URLSearchParams({ lat, lng }).toString(), queryStringParameters: { lat, lng } };
}

/** Coordinates no other test (or earlier run against the same table) looks up, 5 decimals. */
function somewhere(): { lat: string; lng: string } {
  const at = (limit: number) => ((Math.random() * 2 - 1) * limit).toFixed(5);
  return { lat: at(80), lng: at(170) };
}

async function cachedItem(cacheKey: string) {
  const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.geocode(cacheKey), ConsistentRead: true }));
  return out.Item;
}

const lookups = (lat: string, lng: string) =>
  places.requests.filter((r) => JSON.stringify((r.body as { QueryPosition?: unknown })?.QueryPosition) === JSON.stringify([Number(lng), Number(lat)])).length;

describe('GET /api/geocode through Amazon Location', () => {
  it('answers the suggestions Geocode finds and keeps them for 30 days, so the same query asks nothing more', async () => {
    // Prepare
    const word = unique();
    places.answer = () => placesAnswer([placesResultItem()]);
    const before = Math.floor(Date.now() / 1000);

    // Act
    const first = await invoke<GeocodeResult>(searchHandler, search(`350 Fifth Avenue ${word}`));
    const second = await invoke<GeocodeResult>(searchHandler, search(`  350 fifth   AVENUE ${word.toUpperCase()}`));

    // Assess
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      available: true,
      suggestions: [
        {
          displayName: '350 5th Ave, New York, NY 10118-0110, United States',
          latitude: 40.74844,
          longitude: -73.98566,
          address: { houseNumber: '350', road: '5th Ave', neighbourhood: 'Midtown', city: 'New York', state: 'New York', postcode: '10118-0110' },
        },
      ],
    });
    expect(second.body).toEqual(first.body);
    expect(places.count(word)).toBe(1);
    expect(places.requests.at(-1)!.body).toMatchObject({ QueryText: `350 fifth avenue ${word}` });
    expect((await cachedItem(`350 fifth avenue ${word}`))?.expiresAt).toBeGreaterThanOrEqual(before + 30 * 24 * 3600);
  });

  it('answers 200 with available false when Amazon Location refuses, caches nothing and logs no address', async () => {
    // Prepare
    const word = unique();
    places.answer = () => placesError(403, 'AccessDeniedException');
    const logs = vi.spyOn(console, 'log').mockImplementation(() => undefined);

    // Act
    const res = await invoke<GeocodeResult>(searchHandler, search(`12 Closed Road ${word}`));
    const retry = await invoke<GeocodeResult>(searchHandler, search(`12 Closed Road ${word}`));

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ suggestions: [], available: false });
    expect(retry.body.available).toBe(false);
    expect(places.count(word)).toBe(2);
    expect(await cachedItem(`12 closed road ${word}`)).toBeUndefined();
    const lines = logs.mock.calls.map((c) => String(c[0]));
    expect(lines.some((l) => l.includes('"level":"warn"') && l.includes('Geocoder unavailable') && l.includes('AccessDeniedException'))).toBe(true);
    expect(lines.join('\n')).not.toMatch(new RegExp(`${word}|Closed Road`, 'i'));
  });
});

describe('GET /api/geocode/reverse through Amazon Location', () => {
  it('answers the address ReverseGeocode finds and keeps it, so a position a few centimetres away asks nothing more', async () => {
    // Prepare
    const { lat, lng } = somewhere();
    places.answer = () => placesAnswer([placesResultItem()]);

    // Act
    const first = await invoke<GeocodeResult>(reverseHandler, reverse(`${lat}1`, `${lng}2`));
    const second = await invoke<GeocodeResult>(reverseHandler, reverse(`${lat}4`, `${lng}3`));

    // Assess
    expect(first.body.available).toBe(true);
    expect(first.body.suggestions.map((s) => s.address.road)).toEqual(['5th Ave']);
    expect(second.body).toEqual(first.body);
    expect(lookups(lat, lng)).toBe(1);
    expect(await cachedItem(`rev:${Number(lat)},${Number(lng)}`)).toBeDefined();
  });

  it('answers an empty list, and keeps it, when nothing is there', async () => {
    // Prepare
    const { lat, lng } = somewhere();
    places.answer = () => placesAnswer([]);

    // Act
    const res = await invoke<GeocodeResult>(reverseHandler, reverse(lat, lng));

    // Assess
    expect(res.body).toEqual({ suggestions: [], available: true });
    expect(await cachedItem(`rev:${Number(lat)},${Number(lng)}`)).toBeDefined();
  });

  it('answers available false when Amazon Location fails, and caches nothing', async () => {
    // Prepare
    const { lat, lng } = somewhere();
    places.answer = () => placesError(500, 'InternalServerException');
    const logs = vi.spyOn(console, 'log').mockImplementation(() => undefined);

    // Act
    const res = await invoke<GeocodeResult>(reverseHandler, reverse(lat, lng));

    // Assess
    expect(res.body).toEqual({ suggestions: [], available: false });
    expect(await cachedItem(`rev:${Number(lat)},${Number(lng)}`)).toBeUndefined();
    expect(logs.mock.calls.map((c) => String(c[0])).join('\n')).not.toContain(String(Number(lat)));
  });
});
