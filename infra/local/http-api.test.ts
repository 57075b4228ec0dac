import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, inject, it } from 'vitest';
import { routeByName } from '../../shared/routes';
import { contentSecurityPolicyFor, securityHeadersFor, strictTransportSecurity } from '../../shared/security-headers';
import { atTheEdge, httpApi, matchRoute, normalizeResult, toEvent } from './http-api';

describe('the local HTTP API', () => {
  it('matches manifest routes and extracts path parameters', () => {
    expect(matchRoute('GET', '/api/bookings/abc')).toEqual({
      route: routeByName('get-booking'),
      params: { id: 'abc' },
    });
    expect(matchRoute('GET', '/api/services')?.route.name).toBe('list-services');
  });

  it('matches nothing for an unknown path or method, as API Gateway answers 404', () => {
    expect(matchRoute('DELETE', '/api/bookings/abc')).toBeUndefined();
    expect(matchRoute('GET', '/api/bookings/abc/extra')).toBeUndefined();
  });

  it.each(['/api/services/%E0%A4%A', '/api/services/%zz', '/api/bookings/%'])(
    'answers a path with a malformed percent-escape (%s) 400 in the handlers\' error shape, not 500',
    async (path) => {
      // Prepare
      const api = httpApi();
      const server = createServer((req, res) => void api(req, res, () => res.end()));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as AddressInfo;

      try {
        // Act
        const res = await fetch(`http://127.0.0.1:${port}${path}`);

        // Assess
        expect(res.status).toBe(400);
        expect(res.headers.get('content-type')).toBe('application/json');
        expect(await res.json()).toEqual({ error: 'BadRequestError', message: 'The address has a malformed percent-escape (%). Check the link.' });
      } finally {
        server.close();
      }
    },
  );

  it('builds a payload 2.0 event with cookies split out of the headers', () => {
    // Act
    const event = toEvent(
      {
        method: 'POST',
        url: '/api/bookings?x=1&x=2',
        headers: { 'content-type': 'application/json', cookie: 'a=1; customer_id=xyz', host: 'localhost:3000' },
        body: Buffer.from('{"a":1}'),
        sourceIp: '127.0.0.1',
      },
      routeByName('create-booking'),
      {},
    );

    // Assess
    expect(event).toMatchObject({
      version: '2.0',
      routeKey: 'POST /api/bookings',
      rawPath: '/api/bookings',
      rawQueryString: 'x=1&x=2',
      cookies: ['a=1', 'customer_id=xyz'],
      queryStringParameters: { x: '1,2' },
      body: '{"a":1}',
      isBase64Encoded: false,
    });
    expect(event.headers).not.toHaveProperty('cookie');
    expect(event.requestContext.http).toMatchObject({ method: 'POST', path: '/api/bookings' });
  });

  it('base64-encodes a binary body', () => {
    const event = toEvent(
      { method: 'POST', url: '/api/bookings', headers: { 'content-type': 'image/png' }, body: Buffer.from([0, 255]), sourceIp: '::1' },
      routeByName('create-booking'),
      {},
    );

    expect(event).toMatchObject({ body: 'AP8=', isBase64Encoded: true });
  });

  it("adds what CloudFront adds: the origin secret and the visitor's address, over whatever the client sent under those names", () => {
    // Act
    const headers = atTheEdge({ 'content-type': 'application/json', 'X-Origin-Verify': 'made-up', 'x-viewer-address': '203.0.113.66' }, '::ffff:127.0.0.1', 'the-secret');

    // Assess
    expect(headers).toEqual({ 'content-type': 'application/json', 'x-origin-verify': 'the-secret', 'x-viewer-address': '::ffff:127.0.0.1' });
  });

  it.each<[string, () => string | undefined, number]>([
    ['with the origin secret', (): string => inject('originSecret'), 200],
    ['without one (a distribution that lost it)', () => undefined, 403],
  ])('serves /api through the functions\' origin check %s', async (_, originSecret, status) => {
    // Prepare
    const api = httpApi({ originSecret });
    const server = createServer((req, res) => void api(req, res, () => res.end()));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;

    try {
      // Act: the client also sends the right secret itself, which the front does not pass on
      const res = await fetch(`http://127.0.0.1:${port}/api/config`, { headers: { 'x-origin-verify': inject('originSecret') } });

      // Assess
      expect(res.status).toBe(status);
    } finally {
      server.close();
    }
  });

  it('reads a bare object result as a 200 JSON body, as API Gateway does', () => {
    expect(normalizeResult({ ok: true } as never)).toEqual({
      statusCode: 200,
      headers: { 'content-type': 'application/json' },
      body: '{"ok":true}',
    });
  });
});

describe('the local security headers', () => {
  const serve = async (options: Parameters<typeof httpApi>[0], url: string) => {
    // Prepare
    const headers: Record<string, string> = {};
    const res = { setHeader: (name: string, value: string) => void (headers[name] = value) } as unknown as ServerResponse;
    let passedOn = false;

    // Act
    await httpApi(options)({ url, method: 'GET', headers: {} } as IncomingMessage, res, () => void (passedOn = true));
    return { headers, passedOn };
  };

  it('sends the cloud values on a page the web app serves, with the local uploads origin', async () => {
    const { headers, passedOn } = await serve({ viteDev: false, uploadOrigins: ['http://127.0.0.1:4569'] }, '/admin');

    // Assess
    expect(passedOn).toBe(true);
    expect(headers).toEqual(securityHeadersFor({ uploadOrigins: ['http://127.0.0.1:4569'] }));
    expect(headers['content-security-policy']).toContain("script-src 'self';");
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['strict-transport-security']).toBe(strictTransportSecurity);
    expect(headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'strict-origin-when-cross-origin',
      'x-frame-options': 'DENY',
    });
    expect(headers['permissions-policy']).toContain('geolocation=(self)');
  });

  it("adds only Vite dev mode's allowances under npm start", async () => {
    const { headers } = await serve({ viteDev: true, uploadOrigins: [] }, '/');

    expect(headers['content-security-policy']).toBe(contentSecurityPolicyFor({ development: true }));
    expect(headers['content-security-policy']).toContain("script-src 'self' 'unsafe-inline'");
    expect(headers['content-security-policy']).toContain("object-src 'none'");
  });
});
