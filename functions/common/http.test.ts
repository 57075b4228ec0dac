import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RouteDef } from '../../shared/routes';
import { availabilitySchema } from '../../shared/schemas/worker';
import { ConflictError } from './errors';
import { http, reply } from './http';
import { newId } from './ids';
import { issuedCustomer } from '../testing/customers';
import { ownerTestSession } from '../testing/owner';
import { createTestWorker, workerToken } from '../testing/workers';
import { aroundTheEdge, invoke, sampleEvent, withBody } from '../testing/events';
import { NOT_THROUGH_SITE_MESSAGE } from './origin-verify';
import { handlerModule } from '../testing/handlers';

const route = {
  name: 'test-route',
  method: 'POST',
  path: '/api/test',
  access: 'public',
  table: 'none',
  body: 'availabilitySchema',
} as const satisfies RouteDef;

const event = withBody(sampleEvent('create-booking'), { isAvailable: true });

describe('the shared handler stack', () => {
  afterEach(() => vi.restoreAllMocks());

  it('hands the handler the validated body and serialises its result as JSON', async () => {
    const handler = http(route, availabilitySchema, async ({ body }) => ({ negated: !body.isAvailable }));

    const res = await invoke(handler, event);

    expect(res).toMatchObject({ status: 200, body: { negated: false } });
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('lets a handler choose the status and cookies', async () => {
    const handler = http(route, availabilitySchema, async () => reply(201, { ok: true }, { cookies: ['a=b'] }));

    const res = await invoke(handler, event);

    expect(res).toMatchObject({ status: 201, body: { ok: true }, cookies: ['a=b'] });
  });

  it('turns a typed domain error into its status and message', async () => {
    const handler = http(route, availabilitySchema, async () => {
      throw new ConflictError('Someone else accepted this job first.');
    });

    const res = await invoke(handler, event);

    expect(res).toMatchObject({
      status: 409,
      body: { error: 'ConflictError', message: 'Someone else accepted this job first.' },
    });
  });

  it('turns an unknown error into a 500 that reveals nothing, and logs it', async () => {
    // Prepare
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const handler = http(route, availabilitySchema, async () => {
      throw new Error('connect ECONNREFUSED 10.0.0.7:5432 password=hunter2');
    });

    // Act
    const res = await invoke(handler, event);

    // Assess
    expect(res.status).toBe(500);
    expect(res.body).toEqual({
      error: 'InternalError',
      message: 'Something went wrong on our side. Please try again in a moment.',
    });
    expect(JSON.stringify(res)).not.toMatch(/ECONNREFUSED|hunter2|stack/);
    expect(logged).toHaveBeenCalledOnce();
    expect(String(logged.mock.calls[0]![0])).toContain('test-route');
  });

  it('refuses a customer route to a caller without the customer cookie, before reading the body', async () => {
    const handler = http({ ...route, access: 'customer' }, availabilitySchema, async () => ({ mine: true }));

    const anonymous = await invoke(handler, withBody(event, 'not json'));
    const customer = await invoke(handler, { ...event, cookies: [(await issuedCustomer()).cookie] });

    expect(anonymous.status).toBe(401);
    expect(customer).toMatchObject({ status: 200, body: { mine: true } });
  });

  it('refuses a customer route to a well-formed customer cookie the server never issued', async () => {
    // Prepare: an id the client made up, owning nothing.
    const ran = vi.fn();
    const handler = http({ ...route, access: 'customer' }, availabilitySchema, async () => {
      ran();
      return { mine: true };
    });

    // Act
    const res = await invoke(handler, { ...event, cookies: [`customer_id=${newId()}`] });

    // Assess
    expect(res).toMatchObject({ status: 401, body: { error: 'UnauthorizedError' } });
    expect(res.cookies).toEqual([]);
    expect(ran).not.toHaveBeenCalled();
  });

  it('refuses a call that did not come through CloudFront with 403, before asking who the caller is or reading the body', async () => {
    // Prepare
    const ran = vi.fn();
    const handler = http({ ...route, access: 'admin' }, availabilitySchema, async () => {
      ran();
      return { ok: true };
    });

    // Act: no credentials and a broken body, which would otherwise be a 401 and a 400
    const res = await invoke(handler, aroundTheEdge({ ...event, body: '{not json' }));

    // Assess
    expect(res).toMatchObject({ status: 403, body: { error: 'ForbiddenError', message: NOT_THROUGH_SITE_MESSAGE } });
    expect(ran).not.toHaveBeenCalled();
  });

  it('accepts a JSON content type with a charset', async () => {
    const handler = http(route, availabilitySchema, async ({ body }) => body);

    const res = await invoke(handler, { ...event, headers: { ...event.headers, 'content-type': 'application/json; charset=utf-8' } });

    expect(res.status).toBe(200);
  });

  it('reports a type error in the field it belongs to', async () => {
    const handler = http(route, availabilitySchema, async ({ body }) => body);

    const res = await invoke(handler, withBody(event, { isAvailable: 'yes' }));

    expect(res).toMatchObject({ status: 400, body: { message: 'isAvailable must be true or false', fields: { isAvailable: 'isAvailable must be true or false' } } });
  });

  it.each(['1e-264', '1e200', '1e309', '-5e-324', '1e100', '9007199254740992', '-9.99e124'])('refuses a number the SDK or DynamoDB cannot store (%s) with 400 before the handler runs', async (number) => {
    // Prepare
    const ran = vi.fn();
    const handler = http(route, availabilitySchema, async ({ body }) => {
      ran();
      return body;
    });

    // Act
    const res = await invoke(handler, withBody(event, `{"isAvailable":true,"latitude":${number}}`));

    // Assess
    expect(res).toMatchObject({ status: 400, body: { error: 'BadRequestError', message: 'The number in "latitude" is too large or too small. Send an ordinary amount.' } });
    expect(ran).not.toHaveBeenCalled();
  });

  it.each(['0', '-0', '1e-130', '51.5074', '9007199254740991', '-9007199254740991'])('lets the storable number %s through to validation', async (number) => {
    const handler = http(route, availabilitySchema, async ({ body }) => body);

    const res = await invoke(handler, withBody(event, `{"isAvailable":true,"n":${number}}`));

    expect(res).toMatchObject({ status: 400, body: { error: 'ValidationError', message: 'Unknown field: n' } });
  });
});

describe('who the stack says is calling', () => {
  const getRoute = { name: 'test-get', method: 'GET', path: '/api/test', access: 'anyone', table: 'none' } as const satisfies RouteDef;
  const getEvent = sampleEvent('get-config');
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  it("tells an 'anyone' route who the call proves to be: a worker's token first, then the owner, then the customer, else anonymous", async () => {
    // Prepare
    const handler = http(getRoute, async ({ caller }) => ({ role: caller.role, id: 'id' in caller ? caller.id : null }));
    const workerId = (await createTestWorker()).id;
    const { cookie: ownerCookie, ownerId } = await ownerTestSession();
    const customer = await issuedCustomer();

    // Act
    const worker = await invoke(handler, { ...getEvent, cookies: [ownerCookie, customer.cookie], headers: { ...getEvent.headers, ...bearer(await workerToken(workerId)) } });
    const owner = await invoke(handler, { ...getEvent, cookies: [ownerCookie, customer.cookie] });
    const asCustomer = await invoke(handler, { ...getEvent, cookies: [customer.cookie] });
    const madeUp = await invoke(handler, { ...getEvent, cookies: [`customer_id=${newId()}`] });

    // Assess
    expect(worker.body).toEqual({ role: 'worker', id: workerId });
    expect(owner.body).toEqual({ role: 'owner', id: ownerId });
    expect(asCustomer.body).toEqual({ role: 'customer', id: customer.customerId });
    expect(madeUp.body).toEqual({ role: 'anonymous', id: null });
  });

  it("refuses a 'signed-in' route to a customer and to nobody, and lets the owner and any worker in", async () => {
    // Prepare
    const handler = http({ ...getRoute, access: 'signed-in' }, async ({ caller }) => ({ role: caller.role }));
    const pendingId = (await createTestWorker({ status: 'pending_review' })).id;
    const { cookie: ownerCookie } = await ownerTestSession();

    // Act
    const nobody = await invoke(handler, getEvent);
    const customer = await invoke(handler, { ...getEvent, cookies: [(await issuedCustomer()).cookie] });
    const owner = await invoke(handler, { ...getEvent, cookies: [ownerCookie] });
    const worker = await invoke(handler, { ...getEvent, headers: { ...getEvent.headers, ...bearer(await workerToken(pendingId)) } });

    // Assess
    expect(nobody).toMatchObject({ status: 401, body: { error: 'UnauthorizedError', message: 'Log in to continue.' } });
    expect(customer.status).toBe(401);
    expect(owner).toMatchObject({ status: 200, body: { role: 'owner' } });
    expect(worker).toMatchObject({ status: 200, body: { role: 'worker' } });
  });
});

describe('path parameters and query strings', () => {
  const idRoute = { name: 'test-id', method: 'GET', path: '/api/test/{id}', access: 'public', params: 'id', table: 'none' } as const satisfies RouteDef;
  const at = (params: Record<string, string>, query?: Record<string, string>) => ({ ...sampleEvent('get-config'), pathParameters: params, queryStringParameters: query });

  it('hands the handler parameters of the id shape, and refuses any other with a 400 naming the parameter', async () => {
    // Prepare
    const ran = vi.fn();
    const handler = http(idRoute, async ({ params }) => {
      ran();
      return { id: params.id };
    });
    const id = newId();

    // Act
    const good = await invoke(handler, at({ id }));
    const bad = await invoke(handler, at({ id: 'nope' }));

    // Assess
    expect(good.body).toEqual({ id });
    expect(bad).toMatchObject({ status: 400, body: { error: 'ValidationError', fields: { id: expect.any(String) } } });
    expect(ran).toHaveBeenCalledOnce();
  });

  it('answers a malformed id as the route answers an unknown one, where the manifest says what that is', async () => {
    // Prepare
    const notFound = http({ ...idRoute, missing: { status: 404, message: 'No such thing.' } }, async () => ({}));
    const forbidden = http({ ...idRoute, missing: { status: 403, message: 'Not yours.' } }, async () => ({}));

    // Act
    const missing = await invoke(notFound, at({ id: '../../etc/passwd' }));
    const refused = await invoke(forbidden, at({ id: 'x'.repeat(300) }));

    // Assess
    expect(missing).toMatchObject({ status: 404, body: { error: 'NotFoundError', message: 'No such thing.' } });
    expect(refused).toMatchObject({ status: 403, body: { error: 'ForbiddenError', message: 'Not yours.' } });
  });

  it('hands the handler the query its schema makes (numbers as numbers), and refuses a bad value with a 400 saying what to change', async () => {
    // Prepare
    const handler = http({ ...idRoute, path: '/api/test', params: undefined, query: 'workerProfiles' }, async ({ query }) => ({ maxKm: query.maxKm ?? null }));

    // Act
    const good = await invoke(handler, at({}, { maxKm: '8.5', utm_source: 'mail' }));
    const bad = await invoke(handler, at({}, { maxKm: 'far' }));

    // Assess
    expect(good.body).toEqual({ maxKm: 8.5 });
    expect(bad).toMatchObject({
      status: 400,
      body: { error: 'ValidationError', message: 'maxKm must be a distance in kilometres, more than 0 and at most 1000.' },
    });
  });
});

describe('the manifest and the handlers', () => {
  it('every route with a body is validated with the schema the manifest names, and no other route reads one', async () => {
    // Prepare: every schema module's exports, by name.
    const modules = import.meta.glob(['../../shared/schemas/*.ts', '!../../shared/schemas/*.test.ts']);
    const schemas = Object.assign({}, ...(await Promise.all(Object.values(modules).map((load) => load())))) as Record<string, unknown>;
    const { routes } = await import('../../shared/routes');

    // Act
    const mismatches: string[] = [];
    for (const route of routes as readonly RouteDef[]) {
      const { handler } = (await handlerModule<{ handler: { bodySchema?: unknown } }>(route.name));
      const expected = route.body ? schemas[route.body] : undefined;
      if (route.body && !expected) mismatches.push(`${route.name}: no schema named ${route.body}`);
      else if (handler.bodySchema !== expected) mismatches.push(`${route.name}: validates with another schema than ${route.body ?? 'none'}`);
    }

    // Assess
    expect(mismatches).toEqual([]);
  });

  it('refuses at cold start a handler whose schema the manifest does not name', () => {
    expect(() => http(route as never, async () => ({}))).toThrow(/names body schema availabilitySchema but the handler passes none/);
  });
});
