import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fake answers to one request: a JSON body (or raw text), a status and a delay. */
export interface FakeAnswer {
  status?: number;
  body?: unknown;
  /** Sent as is instead of JSON (for a broken answer). */
  raw?: string;
  delayMs?: number;
}

export interface FakeGeocoder {
  /** http://127.0.0.1:<port>, for GEOCODER_URL. */
  url: string;
  /** Every request received, in order. */
  requests: { url: URL; userAgent: string | undefined }[];
  /** Decides the answer to each request; replace it per test. */
  answer: (url: URL) => FakeAnswer;
  /** Requests whose path and query contain `part` (e.g. a query's words). */
  count(part: string): number;
  /** Closes the port: calls meet a refused connection until `reopen`. */
  stop(): Promise<void>;
  reopen(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A real HTTP server on 127.0.0.1 standing in for Nominatim, so the geocoder's own fetch, timeout
 * and error handling are what the tests exercise. Start it before the handler is imported: the
 * handler reads GEOCODER_URL once, at import.
 */
export async function startFakeGeocoder(): Promise<FakeGeocoder> {
  let server: Server;
  const fake: FakeGeocoder = {
    url: '',
    requests: [],
    answer: () => ({ body: [] }),
    count: (part) => fake.requests.filter((r) => decodeURIComponent(`${r.url.pathname}${r.url.search}`.replace(/\+/g, ' ')).includes(part)).length,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
    reopen: () => listen(Number(new URL(fake.url).port)).then(() => undefined),
    close: () => fake.stop(),
  };

  function onRequest(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    fake.requests.push({ url, userAgent: req.headers['user-agent'] });
    const { status = 200, body, raw, delayMs = 0 } = fake.answer(url);
    const timer = setTimeout(() => {
      if (res.destroyed) return;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(raw ?? JSON.stringify(body ?? null));
    }, delayMs);
    res.on('close', () => clearTimeout(timer));
  }

  function listen(port: number): Promise<number> {
    server = createServer(onRequest);
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
