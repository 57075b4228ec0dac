import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { GeocodeResult } from '../../shared/schemas/job';
import { keys } from '../../shared/entities';
import { dynamo, tableName } from '../common/clients';
import { invoke, sampleEvent } from '../testing/events';
import { nominatimPlace } from '../testing/fake-geocoder';
import { handler } from './reverse-geocode';

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
  geocoder.answer = () => ({ body: { error: 'Unable to geocode' } });
});

/** Coordinates no other test (or earlier run against the same table) looks up, 5 decimals. */
function somewhere(): { lat: string; lng: string } {
  const at = (limit: number) => ((Math.random() * 2 - 1) * limit).toFixed(5);
  return { lat: at(80), lng: at(170) };
}

function reverse(params: Record<string, string>): APIGatewayProxyEventV2 {
  const event = sampleEvent('reverse-geocode');
  return { ...event, rawQueryString: new URLSearchParams(params).toString(), queryStringParameters: params };
}

async function cachedItem(lat: string, lng: string) {
  const key = keys.geocode(`rev:${Number(lat)},${Number(lng)}`);
  const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }));
  return out.Item;
}

const lookups = (lat: string, lng: string) =>
  geocoder.requests.filter((r) => r.url.searchParams.get('lat') === String(Number(lat)) && r.url.searchParams.get('lon') === String(Number(lng))).length;

describe('GET /api/geocode/reverse through a Nominatim-compatible geocoder', () => {
  it('maps the place Nominatim finds at the coordinates, asking in English with address details', async () => {
    // Prepare
    const { lat, lng } = somewhere();
    geocoder.answer = () => ({ body: nominatimPlace({ address: { house_number: '7', road: 'Elm Row', village: 'Upton', postcode: 'UP1 2AB' } }) });

    // Act
    const res = await invoke<GeocodeResult>(handler, reverse({ lat, lng }));

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      available: true,
      suggestions: [
        {
          displayName: 'Empire State Building, 350, 5th Avenue, Manhattan, New York, New York, 10118, United States',
          latitude: 40.7484421,
          longitude: -73.9856589,
          address: { houseNumber: '7', road: 'Elm Row', city: 'Upton', postcode: 'UP1 2AB' },
        },
      ],
    });
    const sent = geocoder.requests.at(-1)!;
    expect(sent.url.pathname).toBe('/reverse');
    expect(Object.fromEntries(sent.url.searchParams)).toEqual({
      format: 'jsonv2',
      addressdetails: '1',
      'accept-language': 'en',
      lat: String(Number(lat)),
      lon: String(Number(lng)),
    });
    expect(sent.userAgent).toMatch(/Fixly/);
  });

  it('rounds to 5 decimals, so positions a few centimetres apart share one cached answer', async () => {
    // Prepare
    const { lat, lng } = somewhere();
    geocoder.answer = () => ({ body: nominatimPlace() });

    // Act
    const first = await invoke<GeocodeResult>(handler, reverse({ lat: `${lat}1`, lng: `${lng}2` }));
    const second = await invoke<GeocodeResult>(handler, reverse({ lat: `${lat}4`, lng: `${lng}3` }));

    // Assess
    expect(lookups(lat, lng)).toBe(1);
    expect(second.body).toEqual(first.body);
    expect(second.body.available).toBe(true);
    expect((await cachedItem(lat, lng))?.expiresAt).toBeGreaterThan(Date.now() / 1000 + 29 * 24 * 3600);
  });

  it('answers an empty list when nothing is there ("Unable to geocode" is an answer)', async () => {
    // Prepare
    const { lat, lng } = somewhere();
    geocoder.answer = () => ({ body: { error: 'Unable to geocode' } });

    // Act
    const res = await invoke<GeocodeResult>(handler, reverse({ lat, lng }));

    // Assess
    expect(res.body).toEqual({ suggestions: [], available: true });
  });

  it('answers 200 with available false when the geocoder is unreachable, and caches nothing', async () => {
    // Prepare
    const { lat, lng } = somewhere();
    const logs = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    await geocoder.stop();

    // Act
    const res = await invoke<GeocodeResult>(handler, reverse({ lat, lng })).finally(() => geocoder.reopen());

    // Assess
    const lines = logs.mock.calls.map((c) => String(c[0])).join('\n');
    logs.mockRestore();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ suggestions: [], available: false });
    expect(await cachedItem(lat, lng)).toBeUndefined();
    expect(lines).toContain('Geocoder unavailable');
    expect(lines).not.toContain(String(Number(lat)));
  });

  it.each([
    ['a server error (503)', { status: 503, raw: 'busy' }],
    ['a body that is not JSON', { raw: 'not json' }],
    ['a place without a position', { body: { display_name: 'Somewhere' } }],
  ])('answers available false on %s and caches nothing', async (_what, answer) => {
    // Prepare
    const { lat, lng } = somewhere();
    geocoder.answer = () => answer;

    // Act
    const res = await invoke<GeocodeResult>(handler, reverse({ lat, lng }));

    // Assess
    expect(res.body).toEqual({ suggestions: [], available: false });
    expect(await cachedItem(lat, lng)).toBeUndefined();
  });

  it.each([
    ['lat missing', { lng: '10' }, { lat: expect.any(String) }],
    ['lng missing', { lat: '10' }, { lng: expect.any(String) }],
    ['lat above 90', { lat: '90.5', lng: '10' }, { lat: expect.stringMatching(/between -90 and 90/) }],
    ['lng below -180', { lat: '10', lng: '-180.1' }, { lng: expect.stringMatching(/between -180 and 180/) }],
    ['lat not a number', { lat: 'north', lng: '10' }, { lat: expect.any(String) }],
    ['both wrong', { lat: '1e3', lng: '' }, { lat: expect.any(String), lng: expect.any(String) }],
  ])('refuses %s with 400, asking nothing and storing nothing', async (_what, params, fields) => {
    // Prepare
    const asked = geocoder.requests.length;

    // Act
    const res = await invoke(handler, reverse(params));

    // Assess
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'ValidationError', fields });
    expect(Object.keys(res.body.fields).sort()).toEqual(Object.keys(fields).sort());
    expect(geocoder.requests.length).toBe(asked);
  });
});
