import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { routes, type RouteDef } from '../../shared/routes';
import { handler as approveWorker } from '../applications/approve-worker';
import { handler as connectSocket } from '../realtime/connect-socket';
import { connectionsRepo } from '../realtime/data/connections';
import type { SocketEvent } from '../realtime/socket';
import { openTestConnection } from '../testing/sockets';
import { applicationsRepo } from '../applications/data/applications';
import { CROSS_SITE_MESSAGE } from '../common/same-origin';
import { asOwner, pendingApplication } from '../testing/applications';
import { issuedCustomer } from '../testing/customers';
import { invoke, sampleEvent, throughTheEdge, withCookies, withHeaders } from '../testing/events';
import { ownerSessionCookie } from '../testing/owner';
import { handlerModule } from '../testing/handlers';

/**
 * Cookies ride along on whatever another page makes the browser send: a form that submits itself
 * to our API (enctype=text/plain needs no preflight), from another site or another port of our
 * host. Every call that changes something and carries cookies must come from our own pages.
 */
const unsafe: readonly RouteDef[] = routes.filter((route) => route.method !== 'GET');

async function load(name: string) {
  return handlerModule<{ handler: (event: APIGatewayProxyEventV2, context: unknown) => Promise<unknown> }>(name);
}

describe('a call from another site carrying the visitor\'s cookies', () => {
  it('cannot approve a worker with the owner\'s cookie from a page on another port of the same host', async () => {
    // Prepare: the review's exploit, an auto-submitting text/plain form on localhost:8081
    const { id } = await pendingApplication();
    const owner = await asOwner('approve-worker', { id });
    const forged = withHeaders(owner, {
      origin: 'http://localhost:8081',
      'sec-fetch-site': 'same-site',
      'content-type': 'text/plain',
    });

    // Act
    const res = await invoke(approveWorker, { ...forged, body: '{"x":"=y"}' });

    // Assess
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error: 'ForbiddenError', message: CROSS_SITE_MESSAGE });
    expect((await applicationsRepo.findWorkerApplication(id))?.status).toBe('pending');
  });

  it('is refused by Origin alone when the browser sends no Sec-Fetch-Site', async () => {
    const { id } = await pendingApplication();
    const owner = await asOwner('approve-worker', { id });

    const res = await invoke(approveWorker, withHeaders(owner, { origin: 'http://localhost:8081' }));

    expect(res.status).toBe(403);
    expect((await applicationsRepo.findWorkerApplication(id))?.status).toBe('pending');
  });

  it('still works from our own page (same origin) and from callers that are not browsers', async () => {
    const [first, second] = [await pendingApplication(), await pendingApplication()];
    const own = withHeaders(await asOwner('approve-worker', { id: first.id }), { origin: 'http://localhost:3000', 'sec-fetch-site': 'same-origin' });
    const script = await asOwner('approve-worker', { id: second.id });

    const [fromPage, fromScript] = [await invoke(approveWorker, own), await invoke(approveWorker, script)];

    expect([fromPage.status, fromScript.status]).toEqual([200, 200]);
  });

  it.each(unsafe.map((route) => [`${route.method} ${route.path}`, route.name] as const))('%s refuses it with 403 before anything else', async (_label, name) => {
    // Prepare
    const { cookie } = await issuedCustomer();
    const event = withHeaders(withCookies(sampleEvent(name), [cookie, await ownerSessionCookie()]), { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' });
    const { handler } = await load(name);

    // Act
    const res = await invoke(handler as never, event);

    // Assess
    expect(res.status).toBe(403);
    expect(res.body.message).toBe(CROSS_SITE_MESSAGE);
  });
});

describe('a call that takes no body', () => {
  // Public ones: the others refuse a caller without credentials (401) before they read a body.
  const bodiless = unsafe.filter((route) => !route.body && !route.rawBody && route.access === 'public');

  it.each(bodiless.map((route) => [`${route.method} ${route.path}`, route.name] as const))('%s refuses a form\'s content type with 415', async (_label, name) => {
    const event = withHeaders(sampleEvent(name), { 'content-type': 'application/x-www-form-urlencoded' });
    const { handler } = await load(name);

    const res = await invoke(handler as never, event);

    expect(res.status).toBe(415);
  });
});

describe('a WebSocket handshake', () => {
  const handshake = async (headers: Record<string, string>) => {
    const sample = sampleEvent('connect-socket') as unknown as SocketEvent;
    const connectionId = await openTestConnection();
    const res = await connectSocket(throughTheEdge({ ...sample, headers, requestContext: { ...sample.requestContext, connectionId } } as never) as unknown as SocketEvent);
    return { res, connectionId };
  };

  it('from a page on another port of our host is refused, though it carries the owner\'s cookie', async () => {
    // Prepare
    const cookie = await ownerSessionCookie();

    // Act
    const { res, connectionId } = await handshake({ Host: 'localhost:3000', Origin: 'http://localhost:8081', Cookie: cookie, 'Sec-WebSocket-Protocol': 'fixly.v1' });

    // Assess
    expect(res).toEqual({ statusCode: 403 });
    expect(await connectionsRepo.find(connectionId)).toBeUndefined();
  });

  it('from our own page is admitted', async () => {
    const cookie = await ownerSessionCookie();

    const { res } = await handshake({ Host: 'localhost:3000', Origin: 'http://localhost:3000', Cookie: cookie });

    expect(res).toMatchObject({ statusCode: 200 });
  });
});
