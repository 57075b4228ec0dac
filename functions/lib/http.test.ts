import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import type { RouteDef } from '../../shared/routes';
import { ConflictError } from './errors';
import { http, reply } from './http';
import { invoke, sampleEvent, withBody } from './testing/events';

const testBody = z.strictObject({ n: z.number('n must be a number') });

const route = {
  name: 'test-route',
  method: 'POST',
  path: '/api/test',
  access: 'public',
  table: 'none',
  body: async () => testBody,
} as const satisfies RouteDef;

const event = withBody(sampleEvent('create-booking'), { n: 1 });

describe('the shared handler stack', () => {
  afterEach(() => vi.restoreAllMocks());

  it('hands the handler the validated body and serialises its result as JSON', async () => {
    const handler = http(route, async ({ body }) => ({ doubled: body.n * 2 }));

    const res = await invoke(handler, event);

    expect(res).toMatchObject({ status: 200, body: { doubled: 2 } });
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('lets a handler choose the status and cookies', async () => {
    const handler = http(route, async () => reply(201, { ok: true }, { cookies: ['a=b'] }));

    const res = await invoke(handler, event);

    expect(res).toMatchObject({ status: 201, body: { ok: true }, cookies: ['a=b'] });
  });

  it('turns a typed domain error into its status and message', async () => {
    const handler = http(route, async () => {
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
    const handler = http(route, async () => {
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
    const handler = http({ ...route, access: 'customer' }, async () => ({ mine: true }));

    const anonymous = await invoke(handler, withBody(event, 'not json'));
    const customer = await invoke(handler, { ...event, cookies: ['customer_id=AAAAAAAAAAAAAAAAAAAAAA'] });

    expect(anonymous.status).toBe(401);
    expect(customer).toMatchObject({ status: 200, body: { mine: true } });
  });

  it('accepts a JSON content type with a charset', async () => {
    const handler = http(route, async ({ body }) => body);

    const res = await invoke(handler, { ...event, headers: { 'content-type': 'application/json; charset=utf-8' } });

    expect(res.status).toBe(200);
  });

  it('reports a type error in the field it belongs to', async () => {
    const handler = http(route, async ({ body }) => body);

    const res = await invoke(handler, withBody(event, { n: 'one' }));

    expect(res).toMatchObject({ status: 400, body: { message: 'n must be a number', fields: { n: 'n must be a number' } } });
  });
});
