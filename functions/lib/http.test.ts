import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RouteDef } from '../../shared/routes';
import { availabilitySchema } from '../../shared/schemas/worker';
import { ConflictError } from './errors';
import { http, reply } from './http';
import { newId } from './ids';
import { issuedCustomer } from './testing/customers';
import { aroundTheEdge, invoke, sampleEvent, withBody } from './testing/events';
import { NOT_THROUGH_SITE_MESSAGE } from './origin-verify';

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

describe('the manifest and the handlers', () => {
  it('every route with a body is validated with the schema the manifest names, and no other route reads one', async () => {
    // Prepare: every schema module's exports, by name.
    const modules = import.meta.glob(['../../shared/schemas/*.ts', '!../../shared/schemas/*.test.ts']);
    const schemas = Object.assign({}, ...(await Promise.all(Object.values(modules).map((load) => load())))) as Record<string, unknown>;
    const { routes } = await import('../../shared/routes');

    // Act
    const mismatches: string[] = [];
    for (const route of routes as readonly RouteDef[]) {
      const { handler } = (await import(`../${route.name}.ts`)) as { handler: { bodySchema?: unknown } };
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
