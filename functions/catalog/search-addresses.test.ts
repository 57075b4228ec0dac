import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { GeocodeResult } from '../../shared/schemas/job';
import { keys } from '../../shared/entities';
import { dynamo, tableName } from '../common/clients';
import { invoke, sampleEvent } from '../testing/events';
import { nominatimPlace } from '../testing/fake-geocoder';
import { handler } from './search-addresses';

// Before the handler is imported: it reads GEOCODER_URL once, at import. GEOCODER_URL alone chooses
// the Nominatim adapter (Amazon Location's cases are in geocode-amazon-location.test.ts).
const geocoder = await vi.hoisted(async () => {
  const { startFakeGeocoder } = await import('../testing/fake-geocoder');
  const fake = await startFakeGeocoder();
  process.env.GEOCODER_URL = fake.url;
  return fake;
});

afterAll(() => geocoder.close());
afterEach(() => {
  geocoder.answer = () => ({ body: [] });
  vi.restoreAllMocks();
});

/** A word no other test (or earlier run against the same table) searches for. */
const unique = () => `t${Math.random().toString(36).slice(2, 10)}`;

function search(q?: string): APIGatewayProxyEventV2 {
  const event = sampleEvent('search-addresses');
  const params: Record<string, string> = q === undefined ? {} : { q };
  return { ...event, rawQueryString: new URLSearchParams(params).toString(), queryStringParameters: params };
}

async function cachedItem(normalisedQuery: string) {
  const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.geocode(normalisedQuery), ConsistentRead: true }));
  return out.Item;
}

describe('GET /api/geocode through a Nominatim-compatible geocoder', () => {
  it('answers the sample event', async () => {
    // Prepare
    geocoder.answer = () => ({ body: [nominatimPlace()] });

    // Act
    const res = await invoke<GeocodeResult>(handler, sampleEvent('search-addresses'));

    // Assess
    expect(res.status).toBe(200);
    expect(res.body.available).toBe(true);
  });

  it('maps a Nominatim answer to address suggestions, asking for 5 English results with address details', async () => {
    // Prepare
    const word = unique();
    geocoder.answer = () => ({
      body: [
        nominatimPlace(),
        nominatimPlace({
          display_name: 'Main Street, Springfield, Illinois',
          lat: '39.8',
          lon: '-89.6',
          address: { road: 'Main Street', town: 'Springfield', state: 'Illinois' },
        }),
        { display_name: 'No position, so not a suggestion' },
      ],
    });

    // Act
    const res = await invoke<GeocodeResult>(handler, search(`350 Fifth Avenue ${word}`));

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      available: true,
      suggestions: [
        {
          displayName: 'Empire State Building, 350, 5th Avenue, Manhattan, New York, New York, 10118, United States',
          latitude: 40.7484421,
          longitude: -73.9856589,
          address: {
            houseNumber: '350',
            road: '5th Avenue',
            neighbourhood: 'Koreatown',
            city: 'New York',
            state: 'New York',
            postcode: '10118',
          },
        },
        {
          displayName: 'Main Street, Springfield, Illinois',
          latitude: 39.8,
          longitude: -89.6,
          address: { road: 'Main Street', city: 'Springfield', state: 'Illinois' },
        },
      ],
    });
    const sent = geocoder.requests.at(-1)!;
    expect(sent.url.pathname).toBe('/search');
    expect(Object.fromEntries(sent.url.searchParams)).toEqual({
      format: 'jsonv2',
      addressdetails: '1',
      limit: '5',
      'accept-language': 'en',
      q: `350 fifth avenue ${word}`,
    });
    expect(sent.userAgent).toMatch(/Fixly/);
    expect(sent.userAgent).toContain(process.env.SUPPORT_EMAIL ?? 'support@fixly.app');
  });

  it('serves a repeated query from the cache, however it is spaced or capitalised, for 30 days', async () => {
    // Prepare
    const word = unique();
    geocoder.answer = () => ({ body: [nominatimPlace()] });
    const before = Math.floor(Date.now() / 1000);

    // Act
    const first = await invoke<GeocodeResult>(handler, search(`10 Main Street ${word}`));
    const second = await invoke<GeocodeResult>(handler, search(`  10  MAIN street   ${word.toUpperCase()} `));

    // Assess
    expect(geocoder.count(word)).toBe(1);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(second.body.available).toBe(true);
    const item = await cachedItem(`10 main street ${word}`);
    expect(item?.expiresAt).toBeGreaterThanOrEqual(before + 30 * 24 * 3600);
    expect(item?.expiresAt).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 30 * 24 * 3600);
  });

  it('caches an answer with no places: the geocoder did answer', async () => {
    // Prepare
    const word = unique();
    geocoder.answer = () => ({ body: [] });

    // Act
    const res = await invoke<GeocodeResult>(handler, search(`nowhere ${word}`));

    // Assess
    expect(res.body).toEqual({ suggestions: [], available: true });
    expect(await cachedItem(`nowhere ${word}`)).toBeDefined();
  });

  it('answers 200 with available false when the geocoder is unreachable, caches nothing and logs no address', async () => {
    // Prepare
    const word = unique();
    const logs = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    await geocoder.stop();

    // Act
    const res = await invoke<GeocodeResult>(handler, search(`12 Closed Port Road ${word}`)).finally(() => geocoder.reopen());

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ suggestions: [], available: false });
    expect(await cachedItem(`12 closed port road ${word}`)).toBeUndefined();
    const lines = logs.mock.calls.map((c) => String(c[0]));
    expect(lines.some((l) => l.includes('"level":"warn"') && l.includes('Geocoder unavailable'))).toBe(true);
    expect(lines.join('\n')).not.toMatch(new RegExp(`${word}|Closed Port`, 'i'));
  });

  it('gives up on an answer slower than its limit and caches nothing', async () => {
    // Prepare: a good answer, but only after the 3 s limit (an unavailable result proves it was not awaited).
    const word = unique();
    geocoder.answer = () => ({ body: [nominatimPlace()], delayMs: 4500 });

    // Act
    const res = await invoke<GeocodeResult>(handler, search(`slow lane ${word}`));

    // Assess
    expect(res.body).toEqual({ suggestions: [], available: false });
    expect(await cachedItem(`slow lane ${word}`)).toBeUndefined();
  });

  it.each([
    ['a refusal (429)', { status: 429, body: { error: 'rate limited' } }],
    ['a server error (500)', { status: 500, raw: 'oops' }],
    ['a body that is not JSON', { raw: '<html>maintenance</html>' }],
    ['JSON that is not a list of places', { body: { unexpected: true } }],
  ])('answers available false on %s and caches nothing', async (_what, answer) => {
    // Prepare
    const word = unique();
    geocoder.answer = () => answer;

    // Act
    const res = await invoke<GeocodeResult>(handler, search(`broken ${word}`));
    const retry = await invoke<GeocodeResult>(handler, search(`broken ${word}`));

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ suggestions: [], available: false });
    expect(retry.body.available).toBe(false);
    expect(geocoder.count(word)).toBe(2);
    expect(await cachedItem(`broken ${word}`)).toBeUndefined();
  });

  it.each([
    ['missing', undefined, /at least 3 characters/],
    ['shorter than 3 characters once trimmed', '  ab  ', /at least 3 characters/],
    ['longer than 200 characters', 'x'.repeat(201), /under 200 characters/],
  ])('refuses a query %s with 400, asking nothing and storing nothing', async (_what, q, message) => {
    // Prepare
    const asked = geocoder.requests.length;

    // Act
    const res = await invoke(handler, search(q));

    // Assess
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'ValidationError', message: expect.stringMatching(message), fields: { q: expect.any(String) } });
    expect(geocoder.requests.length).toBe(asked);
    if (q) expect(await cachedItem(q.trim().toLowerCase())).toBeUndefined();
  });
});
