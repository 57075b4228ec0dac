import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { routes, type RouteDef } from '../../shared/routes';
import { admittedCallers, credentialsOf, withCredentials } from '../testing/callers';
import { invoke, sampleEvent } from '../testing/events';
import { contractProblems } from '../testing/responses';
import { createTestWorker } from '../testing/workers';
import { handlerModule } from '../testing/handlers';

/**
 * Every route of the manifest, called with its sample event by everyone it admits: a 2xx answer is
 * one its response schema (shared/routes.ts `response`) accepts. Every handler test holds its route
 * to the same contract (functions/testing/events.ts `invoke`); this walk makes sure no route is
 * left out, and that each handler is the stack of its own manifest entry.
 */
let activeWorkerId: string;

beforeAll(async () => {
  activeWorkerId = (await createTestWorker()).id;
});

type RouteHandler = Parameters<typeof invoke>[0] & { route?: RouteDef };

async function handlerOf(route: RouteDef): Promise<RouteHandler> {
  return ((await handlerModule<{ handler: RouteHandler }>(route.name))).handler;
}

/** The sample event speaking of the active worker where it names one in its path. */
function asOwnWorker(event: APIGatewayProxyEventV2): APIGatewayProxyEventV2 {
  return event.pathParameters?.workerId ? { ...event, pathParameters: { ...event.pathParameters, workerId: activeWorkerId } } : event;
}

const manifest = routes as readonly RouteDef[];

describe('answers across the whole manifest', () => {
  describe.each(manifest.map((r) => [`${r.method} ${r.path} (${r.response})`, r] as const))('%s', (_, route) => {
    it('is the http() stack of its own manifest entry', async () => {
      // Act
      const handler = await handlerOf(route);

      // Assess
      expect(handler.route).toBe(route);
    });

    it.each(admittedCallers(route.access))('answers %s, when it answers 2xx, with a body its response schema accepts', async (caller) => {
      // Prepare
      const handler = await handlerOf(route);
      const event = withCredentials(asOwnWorker(sampleEvent(route.name)), await credentialsOf(caller, activeWorkerId));

      // Act
      const res = await invoke(handler, event);

      // Assess
      expect(contractProblems(route, res.status, res.body)).toEqual([]);
    });
  });
});

describe('the contract check', () => {
  const route = manifest.find((r) => r.name === 'get-admin-status')!;

  it('accepts an answer of the schema', () => {
    expect(contractProblems(route, 200, { isAdmin: false, isSetup: true })).toEqual([]);
  });

  it('names each field of a 2xx answer the schema refuses: a wrong type, a missing field, one it does not name', () => {
    expect(contractProblems(route, 200, { isAdmin: 'no', passwordHash: 'x' })).toEqual([
      expect.stringMatching(/^isAdmin: /),
      expect.stringMatching(/^isSetup: /),
      expect.stringMatching(/passwordHash/),
    ]);
  });

  it('leaves refusals alone: their body is the error stack\'s, the same for every route', () => {
    expect(contractProblems(route, 404, { error: 'NotFoundError', message: 'No.' })).toEqual([]);
  });

  it('counts a route without a response schema as a problem', () => {
    expect(contractProblems({ name: 'made-up', response: undefined }, 200, {})).toEqual(['made-up names no response schema']);
  });
});
