import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD_HASHING_MEMORY_MB, recurring, routeKey, routes, socketRoutes, streamConsumers, timers, type RouteDef } from '../shared/routes';
import type { CfnApi } from 'aws-cdk-lib/aws-apigatewayv2';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { paramSchemas } from '../shared/schemas/params';
import { querySchemas } from '../shared/schemas/query';
import { responseSchemas } from '../shared/schemas/responses';
import { ownModulesLoadedBy } from './testing/module-graph';
import { testSynth } from './testing/synth';
import { functionFile } from '../shared/function-files';

/**
 * Every manifest entry has a handler, a sample event and a CDK route; every
 * timer a handler, a sample event (the schedule's input) and a CDK function.
 * Handler modules are read as text, never imported: they parse their environment at import.
 */
const root = fileURLToPath(new URL('..', import.meta.url));

const synths = testSynth();
let routeKeys: string[];
let functionNames: string[];
/** Route keys of the WebSocket API (not the HTTP API), and the function each one integrates. */
let socketRouteTargets: { routeKey: string; functionId: string }[];
let socketFunctionIds: Record<string, string>;
/** Each event source mapping's function (logical id) and its filter patterns. */
let streamMappings: { functionId: string; patterns: string[] }[];
let streamFunctionIds: Record<string, string>;
/** The recurring schedules' target functions (logical ids), and each recurring job's function. */
let scheduleTargets: { functionId: string }[];
let recurringFunctionIds: Record<string, string>;

beforeAll(() => {
  // Prepare (shared): one synth with bundling skipped.
  const { stack, template } = synths.synth({ stage: 'test' });
  const resources = template.findResources('AWS::ApiGatewayV2::Route');
  const wsApiId = stack.getLogicalId(stack.webSocketApi.node.defaultChild as CfnApi);
  const integrations = template.findResources('AWS::ApiGatewayV2::Integration') as Record<string, { Properties: { IntegrationUri: unknown } }>;
  socketRouteTargets = Object.values(resources as Record<string, { Properties: { ApiId: { Ref?: string }; RouteKey: string; Target: unknown } }>)
    .filter((r) => r.Properties.ApiId.Ref === wsApiId)
    .map((r) => {
      const integrationId = /"Ref":"([^"]+)"/.exec(JSON.stringify(r.Properties.Target))?.[1] ?? '';
      const uri = JSON.stringify(integrations[integrationId]?.Properties.IntegrationUri ?? '');
      return { routeKey: r.Properties.RouteKey, functionId: /"Fn::GetAtt":\["([^"]+)","Arn"\]/.exec(uri)?.[1] ?? '' };
    });
  socketFunctionIds = Object.fromEntries(
    Object.entries(stack.socketFunctions).map(([name, fn]) => [name, stack.getLogicalId(fn.node.defaultChild as CfnFunction)]),
  );
  routeKeys = Object.values(resources).map((r) => (r as { Properties: { RouteKey: string } }).Properties.RouteKey);
  streamMappings = Object.values(
    template.findResources('AWS::Lambda::EventSourceMapping') as Record<string, { Properties: { FunctionName: unknown; FilterCriteria?: { Filters: { Pattern: string }[] } } }>,
  ).map((m) => ({
    functionId: /"Ref":"([^"]+)"/.exec(JSON.stringify(m.Properties.FunctionName))?.[1] ?? '',
    patterns: (m.Properties.FilterCriteria?.Filters ?? []).map((f) => f.Pattern),
  }));
  scheduleTargets = Object.values(template.findResources('AWS::Scheduler::Schedule') as Record<string, { Properties: { Target: { Arn: unknown } } }>).map(
    (s) => ({ functionId: /"Fn::GetAtt":\["([^"]+)","Arn"\]/.exec(JSON.stringify(s.Properties.Target.Arn))?.[1] ?? '' }),
  );
  recurringFunctionIds = Object.fromEntries(
    Object.entries(stack.recurringFunctions).map(([name, fn]) => [name, stack.getLogicalId(fn.node.defaultChild as CfnFunction)]),
  );
  streamFunctionIds = Object.fromEntries(
    Object.entries(stack.streamFunctions).map(([name, fn]) => [name, stack.getLogicalId(fn.node.defaultChild as CfnFunction)]),
  );
  functionNames = Object.values(template.findResources('AWS::Lambda::Function'))
    .map((f) => (f as { Properties: { FunctionName?: string } }).Properties.FunctionName)
    .filter((name): name is string => Boolean(name));
});

afterAll(() => synths.cleanup());

/** Every function, of every kind, is functions/<area>/<name>.ts exporting `handler`. */
function itHasItsHandlerFile(name: string): void {
  it('has its handler file functions/<area>/<name>.ts exporting handler', () => {
    // Prepare
    const file = join(root, functionFile(name));

    // Act
    const source = existsSync(file) ? readFileSync(file, 'utf8') : '';

    // Assess
    expect(existsSync(file), `missing ${file}`).toBe(true);
    expect(source).toMatch(/export const handler\b/);
  });
}

/** Functions that Scheduler invokes take the schedule's JSON input as their event, and their sample is one. */
function itHasAScheduleInputEvent(name: string): void {
  it("has a sample event events/<name>.json that is a schedule's JSON input, not an HTTP event", () => {
    // Prepare
    const file = join(root, 'events', `${name}.json`);

    // Act
    const event = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : undefined;

    // Assess
    expect(existsSync(file), `missing ${file}`).toBe(true);
    expect(event).toBeTypeOf('object');
    expect(event).not.toHaveProperty('routeKey');
    expect(event).not.toHaveProperty('requestContext');
  });
}

describe('route manifest (shared/routes.ts)', () => {
  it('names every route uniquely in kebab-case verb-noun form under /api/', () => {
    // Prepare
    const names = routes.map((r) => r.name);
    const keys = routes.map(routeKey);

    // Act
    const badNames = names.filter((n) => !/^[a-z]+(-[a-z0-9]+)+$/.test(n));
    const badPaths = routes.filter((r) => !r.path.startsWith('/api/')).map((r) => r.path);

    // Assess
    expect(routes.length).toBeGreaterThan(0);
    expect(new Set(names).size).toBe(names.length);
    expect(new Set(keys).size).toBe(keys.length);
    expect(badNames).toEqual([]);
    expect(badPaths).toEqual([]);
  });

  describe.each(routes.map((r) => [r.name, r] as const))('%s', (name, route) => {
    itHasItsHandlerFile(name);

    it('has a payload 2.0 sample event events/<name>.json for its route key', () => {
      // Prepare
      const file = join(root, 'events', `${name}.json`);

      // Act
      const event = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : {};

      // Assess
      expect(existsSync(file), `missing ${file}`).toBe(true);
      expect(event.version).toBe('2.0');
      expect(event.routeKey).toBe(routeKey(route));
    });

    it('names the schemas of its contract: parameters exactly as its path has them, its query, its answer', () => {
      // Prepare
      const def = route as RouteDef;
      const pathNames = [...def.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).sort();

      // Act
      const paramNames = def.params ? Object.keys(paramSchemas[def.params].shape).sort() : [];

      // Assess
      expect(paramNames, 'the params schema names the path\'s {parameters}, no more').toEqual(pathNames);
      expect(def.missing === undefined || def.params !== undefined, 'an answer for missing parameters needs parameters').toBe(true);
      expect(def.query === undefined || def.query in querySchemas, `no query schema named ${def.query}`).toBe(true);
      expect(def.response, 'every route names its response schema').toBeDefined();
      expect(def.response! in responseSchemas, `no response schema named ${def.response}`).toBe(true);
    });

    const deployed = !('localRuntimeOnly' in route && route.localRuntimeOnly);
    it(deployed ? 'has its HTTP API route in the synthesized template' : 'is absent from a deployed stage\'s template', () => {
      // Prepare
      const expected = routeKey(route);

      // Act
      const matches = routeKeys.filter((k) => k === expected);

      // Assess
      expect(matches).toHaveLength(deployed ? 1 : 0);
    });
  });
});

describe('timer manifest (shared/routes.ts timers)', () => {
  it('names every timer uniquely in kebab-case, apart from every route (they share functions/ and events/)', () => {
    // Prepare
    const names = timers.map((t) => t.name);
    const routeNames: string[] = routes.map((r) => r.name);

    // Act
    const badNames = names.filter((n) => !/^[a-z]+(-[a-z0-9]+)+$/.test(n));
    const clashes = names.filter((n) => routeNames.includes(n));

    // Assess
    expect(new Set(names).size).toBe(names.length);
    expect(badNames).toEqual([]);
    expect(clashes).toEqual([]);
  });

  describe.each(timers.map((t) => [t.name, t] as const))('%s', (name) => {
    itHasItsHandlerFile(name);

    itHasAScheduleInputEvent(name);

    it('has its function in the synthesized template, named <stack>-<name> as schedule targets expect', () => {
      // Prepare
      const expected = `Marketplace-test-${name}`;

      // Act
      const matches = functionNames.filter((n) => n === expected);

      // Assess
      expect(matches).toHaveLength(1);
    });
  });
});

describe('socket route manifest (shared/routes.ts socketRoutes)', () => {
  const eventTypes = { $connect: 'CONNECT', $disconnect: 'DISCONNECT', $default: 'MESSAGE' } as const;

  it('names every socket route uniquely in kebab-case, apart from every route and timer, one per route key', () => {
    // Prepare
    const names = socketRoutes.map((r) => r.name);
    const others: string[] = [...routes.map((r) => r.name), ...timers.map((t) => t.name)];

    // Act
    const badNames = names.filter((n) => !/^[a-z]+(-[a-z0-9]+)+$/.test(n));
    const clashes = names.filter((n) => others.includes(n));

    // Assess
    expect(new Set(names).size).toBe(names.length);
    expect(socketRoutes.map((r) => r.routeKey).sort()).toEqual(['$connect', '$default', '$disconnect']);
    expect(badNames).toEqual([]);
    expect(clashes).toEqual([]);
  });

  describe.each(socketRoutes.map((r) => [r.name, r] as const))('%s', (name, socketRoute) => {
    itHasItsHandlerFile(name);

    it('has a WebSocket sample event events/<name>.json for its route key', () => {
      // Prepare
      const file = join(root, 'events', `${name}.json`);

      // Act
      const event = existsSync(file)
        ? (JSON.parse(readFileSync(file, 'utf8')) as { requestContext?: Record<string, unknown>; isBase64Encoded?: boolean })
        : {};

      // Assess
      expect(existsSync(file), `missing ${file}`).toBe(true);
      expect(event.requestContext).toMatchObject({ routeKey: socketRoute.routeKey, eventType: eventTypes[socketRoute.routeKey] });
      expect(event.requestContext?.connectionId).toEqual(expect.any(String));
      expect(event.isBase64Encoded).toBe(false);
    });

    it('has its WebSocket API route in the synthesized template, integrated with its own function', () => {
      // Act
      const matches = socketRouteTargets.filter((t) => t.routeKey === socketRoute.routeKey);

      // Assess
      expect(matches).toHaveLength(1);
      expect(matches[0]!.functionId).toBe(socketFunctionIds[name]);
    });
  });
});

describe('stream consumer manifest (shared/routes.ts streamConsumers)', () => {
  it('names every consumer uniquely in kebab-case, apart from every route, timer and socket route', () => {
    // Prepare
    const names = streamConsumers.map((c) => c.name);
    const others: string[] = [...routes.map((r) => r.name), ...timers.map((t) => t.name), ...socketRoutes.map((r) => r.name)];

    // Act
    const badNames = names.filter((n) => !/^[a-z]+(-[a-z0-9]+)+$/.test(n));
    const clashes = names.filter((n) => others.includes(n));

    // Assess
    expect(new Set(names).size).toBe(names.length);
    expect(badNames).toEqual([]);
    expect(clashes).toEqual([]);
  });

  describe.each(streamConsumers.map((c) => [c.name, c] as const))('%s', (name, consumer) => {
    itHasItsHandlerFile(name);

    it('has a sample event events/<name>.json of stream records', () => {
      // Prepare
      const file = join(root, 'events', `${name}.json`);

      // Act
      const event = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { Records?: { eventSource?: string }[] }) : {};

      // Assess
      expect(existsSync(file), `missing ${file}`).toBe(true);
      expect(event.Records?.length).toBeGreaterThan(0);
      expect(event.Records?.every((r) => r.eventSource === 'aws:dynamodb')).toBe(true);
    });

    it('has one event source mapping on the table stream, for its own function, with the manifest filter', () => {
      // Act
      const matches = streamMappings.filter((m) => m.functionId === streamFunctionIds[name]);

      // Assess
      expect(matches).toHaveLength(1);
      expect(matches[0]!.patterns).toEqual(consumer.filters.map((filter) => JSON.stringify(filter)));
    });
  });
});

describe('recurring job manifest (shared/routes.ts recurring)', () => {
  it('names every job uniquely in kebab-case, apart from every other function, with a cron matching its local time or period', () => {
    // Prepare
    const names = recurring.map((r) => r.name);
    const others: string[] = [...routes, ...timers, ...socketRoutes, ...streamConsumers].map((f) => f.name);

    // Act
    const badNames = names.filter((n) => !/^[a-z]+(-[a-z0-9]+)+$/.test(n));
    const clashes = names.filter((n) => others.includes(n));
    const mismatched = recurring
      .filter((r) =>
        'everyMinutes' in r
          ? r.cron !== `cron(0/${r.everyMinutes} * * * ? *)` || 60 % r.everyMinutes !== 0
          : r.cron !== `cron(${r.dailyAtUtc.minute} ${r.dailyAtUtc.hour} * * ? *)`,
      )
      .map((r) => r.name);

    // Assess
    expect(new Set(names).size).toBe(names.length);
    expect(badNames).toEqual([]);
    expect(clashes).toEqual([]);
    expect(mismatched).toEqual([]);
  });

  describe.each(recurring.map((r) => [r.name, r] as const))('%s', (name) => {
    itHasItsHandlerFile(name);

    itHasAScheduleInputEvent(name);

    it('has its function and its schedule in the synthesized template', () => {
      // Act
      const scheduled = scheduleTargets.filter((t) => t.functionId === recurringFunctionIds[name]);

      // Assess
      expect(recurringFunctionIds[name]).toBeTruthy();
      expect(scheduled).toHaveLength(1);
    });
  });
});

describe('memory of the functions that hash passwords (shared/routes.ts memoryMb)', () => {
  const passwords = join(root, 'functions/common/auth/passwords.ts');
  const hashes = (name: string) => ownModulesLoadedBy(join(root, functionFile(name))).has(passwords);

  it('gives every route whose handler loads the password module, directly or not, at least one vCPU of memory', () => {
    // Act
    const hashing = routes.filter((r) => hashes(r.name));
    const undersized = hashing.filter((r) => ((r as RouteDef).memoryMb ?? 0) < PASSWORD_HASHING_MEMORY_MB).map((r) => r.name);

    // Assess: the logins, sign-up, owner setup and password change are among them (the scan sees imports)
    expect(hashing.map((r) => r.name)).toEqual(expect.arrayContaining(['login-admin', 'login-worker', 'create-worker-account', 'setup-admin', 'change-password']));
    expect(undersized).toEqual([]);
  });

  it('has no timer, socket route, stream consumer or recurring job hash a password, since only routes can be given the memory', () => {
    // Act
    const others = [...timers, ...socketRoutes, ...streamConsumers, ...recurring].map((f) => f.name).filter(hashes);

    // Assess
    expect(others).toEqual([]);
  });

  it('gives the hashing memory to no route that hashes nothing (it would pay seven times the price of its waits for no speed)', () => {
    // Act
    const needless = routes.filter((r) => (r as RouteDef).memoryMb === PASSWORD_HASHING_MEMORY_MB && !hashes(r.name)).map((r) => r.name);

    // Assess
    expect(needless).toEqual([]);
  });
});
