import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fake answers to one request: a JSON body (or raw text), a status, headers and a delay. */
export interface FakeAnswer {
  status?: number;
  body?: unknown;
  /** Sent as is instead of JSON (for a broken answer). */
  raw?: string;
  headers?: Record<string, string>;
  delayMs?: number;
}

/** One request as the fake received it; `body` is the parsed JSON body, if it had one. */
export interface FakeRequest {
  method: string;
  url: URL;
  userAgent: string | undefined;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

export interface FakeGeocoder {
  /** http://127.0.0.1:<port>, for GEOCODER_URL or GEO_PLACES_ENDPOINT. */
  url: string;
  /** Every request received, in order. */
  requests: FakeRequest[];
  /** Decides the answer to each request; replace it per test. */
  answer: (url: URL, request: FakeRequest) => FakeAnswer;
  /** Requests whose path, query or body contain `part` (e.g. a query's words). */
  count(part: string): number;
  /** Closes the port: calls meet a refused connection until `reopen`. */
  stop(): Promise<void>;
  reopen(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A real HTTP server on 127.0.0.1 standing in for Nominatim or Amazon Location's Places API, so the
 * geocoder's own fetch (or the real SDK client), timeout and error handling are what the tests
 * exercise. Start it before the handler is imported: the handler reads its environment once, at import.
 */
export async function startFakeGeocoder(): Promise<FakeGeocoder> {
  let server: Server;
  const fake: FakeGeocoder = {
    url: '',
    requests: [],
    answer: () => ({ body: [] }),
    count: (part) =>
      fake.requests.filter((r) => `${decodeURIComponent(`${r.url.pathname}${r.url.search}`.replace(/\+/g, ' '))} ${JSON.stringify(r.body ?? null)}`.includes(part)).length,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
    reopen: () => listen(Number(new URL(fake.url).port)).then(() => undefined),
    close: () => fake.stop(),
  };

  async function onRequest(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const sent = Buffer.concat(chunks).toString('utf8');
    const request: FakeRequest = { method: req.method ?? 'GET', url, userAgent: req.headers['user-agent'], headers: req.headers, body: sent ? JSON.parse(sent) : undefined };
    fake.requests.push(request);
    const { status = 200, body, raw, headers = {}, delayMs = 0 } = fake.answer(url, request);
    const timer = setTimeout(() => {
      if (res.destroyed) return;
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(raw ?? JSON.stringify(body ?? null));
    }, delayMs);
    res.on('close', () => clearTimeout(timer));
  }

  function listen(port: number): Promise<number> {
    server = createServer((req, res) => void onRequest(req, res));
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
    });
  }

  fake.url = `http://127.0.0.1:${await listen(0)}`;
  return fake;
}

/** A Nominatim jsonv2 place with address details, as /search lists them and /reverse returns one. */
export function nominatimPlace(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    place_id: 123456,
    osm_type: 'way',
    osm_id: 34633854,
    lat: '40.7484421',
    lon: '-73.9856589',
    category: 'building',
    type: 'yes',
    display_name: 'Empire State Building, 350, 5th Avenue, Manhattan, New York, New York, 10118, United States',
    address: {
      house_number: '350',
      road: '5th Avenue',
      neighbourhood: 'Koreatown',
      suburb: 'Manhattan',
      city: 'New York',
      state: 'New York',
      postcode: '10118',
      country: 'United States',
      country_code: 'us',
    },
    ...overrides,
  };
}

/**
 * A result of Amazon Location's Geocode or ReverseGeocode (Places API v2) as the service sends it:
 * positions are [longitude, latitude].
 */
export function placesResultItem(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    PlaceId: 'AQAAAFUAexample',
    PlaceType: 'PointAddress',
    Title: '350 5th Ave, New York, NY 10118-0110, United States',
    Address: {
      Label: '350 5th Ave, New York, NY 10118-0110, United States',
      Country: { Code2: 'US', Code3: 'USA', Name: 'United States' },
      Region: { Code: 'NY', Name: 'New York' },
      SubRegion: { Name: 'New York' },
      Locality: 'New York',
      District: 'Manhattan',
      SubDistrict: 'Midtown',
      PostalCode: '10118-0110',
      Street: '5th Ave',
      StreetComponents: [{ BaseName: '5th', Type: 'Ave', TypePlacement: 'AfterBaseName', TypeSeparator: ' ', Language: 'en' }],
      AddressNumber: '350',
    },
    Position: [-73.98566, 40.74844],
    MapView: [-73.98693, 40.74754, -73.98439, 40.74934],
    ...overrides,
  };
}

/** A successful Places answer: its results, and the pricing header the service always sends. */
export function placesAnswer(items: unknown[]): FakeAnswer {
  return { body: { ResultItems: items }, headers: { 'x-amz-geo-pricing-bucket': 'Core' } };
}

/** A Places error as the service sends one: the status, the error's type in a header, a message. */
export function placesError(status: number, type: string): FakeAnswer {
  return { status, body: { message: `${type} from the stand-in` }, headers: { 'x-amzn-errortype': type } };
}
