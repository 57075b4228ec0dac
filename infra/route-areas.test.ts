import { fileURLToPath } from 'node:url';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { functionFile } from '../shared/function-files';
import { deployedRoutes, type RouteDef } from '../shared/routes';
import { METRICS_PER_ALARM } from './monitoring';
import { areaOf, MAX_ROUTES_PER_AREA, routeAreas, routesByArea } from './route-areas';
import { testSynth } from './testing/synth';

/** CloudFormation's limit is 500 resources a template; each template keeps this much room below it. */
const RESOURCE_CEILING = 450;
const TARGET_ROUTES = 150;
const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/**
 * The manifest grown to `count` routes, each area in today's proportion: copies of real routes under
 * new names and paths (same first segment, so the same area), whose code is the original's.
 */
function grownManifest(count: number): { routes: RouteDef[]; entryOf: (name: string) => string } {
  const originals = new Map<string, string>();
  const routes: RouteDef[] = [...deployedRoutes];
  for (let i = 0; routes.length < count; i++) {
    const original = deployedRoutes[i % deployedRoutes.length]!;
    const name = `${original.name}-grown-${i}`;
    originals.set(name, original.name);
    routes.push({ ...original, name, path: original.path.replace(/^(\/api\/[^/]+)/, `$1/grown-${i}`) as RouteDef['path'] });
  }
  return { routes, entryOf: (name) => `${repoRoot}${functionFile(originals.get(name) ?? name)}` };
}

const resourceCount = (template: Template) => Object.keys(template.toJSON().Resources as object).length;

describe('route areas', () => {
  it('places every deployed route in an area', () => {
    // Prepare / Act
    const areas = deployedRoutes.map((route) => areaOf(route));

    // Assess
    expect(new Set(areas)).toEqual(new Set(Object.keys(routeAreas)));
  });

  it('stops the synth when a route has a path segment no area holds, saying where to add it', () => {
    // Prepare
    const route = { name: 'list-gadgets', path: '/api/gadgets' as const };

    // Act / Assess
    expect(() => areaOf(route)).toThrow(/no area holds the path segment "gadgets".*infra\/route-areas\.ts/);
  });

  it('refuses an area with more routes than a nested stack holds', () => {
    // Prepare
    const crowded = Array.from({ length: MAX_ROUTES_PER_AREA + 1 }, (_, i) => ({ name: `r${i}`, path: `/api/admin/r${i}` as const }));

    // Act / Assess
    expect(() => routesByArea(crowded)).toThrow(/area "owner" has 101 routes/);
  });

  it('gives no path segment to two areas', () => {
    // Prepare
    const segments = Object.values(routeAreas).flat();

    // Assess
    expect(segments.length).toBe(new Set(segments).size);
  });
});

describe(`the stack with ${TARGET_ROUTES} routes`, () => {
  const { synth, cleanup } = testSynth();
  let grown: ReturnType<typeof synth>;
  let today: ReturnType<typeof synth>;
  beforeAll(() => {
    today = synth();
    grown = synth(grownManifest(TARGET_ROUTES));
  }, 300_000);
  afterAll(cleanup);

  it('keeps one function and one HTTP route per route', () => {
    // Assess
    expect(Object.keys(grown.stack.functions)).toHaveLength(TARGET_ROUTES);
    expect(httpRouteKeys(grown.template)).toHaveLength(TARGET_ROUTES);
  });

  it(`keeps every template under ${RESOURCE_CEILING} resources`, () => {
    // Prepare
    const templates = [
      { name: grown.stack.stackName, template: grown.stackTemplate },
      ...[...grown.stack.routeStacks].map(([area, nested]) => ({ name: area, template: Template.fromStack(nested) })),
    ];

    // Assess
    for (const { name, template } of templates) {
      expect(resourceCount(template), name).toBeLessThan(RESOURCE_CEILING);
    }
  });

  it("holds the routes in the nested stacks: the parent grows only by an error and a throttle alarm per ten of an area's functions", () => {
    // Prepare: the alarms group each area's functions, so every area that grew may start a group
    const added = grownManifest(TARGET_ROUTES).routes.slice(deployedRoutes.length);
    const addedByArea = new Map<string, number>();
    for (const route of added) addedByArea.set(areaOf(route), (addedByArea.get(areaOf(route)) ?? 0) + 1);
    const groups = [...addedByArea.values()].reduce((sum, n) => sum + Math.ceil(n / METRICS_PER_ALARM), 0);

    // Act
    const growth = resourceCount(grown.stackTemplate) - resourceCount(today.stackTemplate);

    // Assess
    expect(growth).toBeLessThanOrEqual(2 * groups);
  });

  it('keeps the routes deployed today in the area stacks they are in today', () => {
    // Prepare
    const areaOfFunction = (result: typeof today, name: string) =>
      [...result.stack.routeStacks].find(([, nested]) => nested.node.findAll().includes(result.stack.functions[name]!))?.[0];

    // Assess
    for (const route of deployedRoutes) {
      expect(areaOfFunction(grown, route.name), route.name).toBe(areaOfFunction(today, route.name));
    }
  });
});

/** The route keys of the HTTP API ("GET /api/..."); the WebSocket API's routes share the resource type. */
function httpRouteKeys(template: Template): string[] {
  return Object.values(template.findResources('AWS::ApiGatewayV2::Route'))
    .map((r) => (r.Properties as { RouteKey: string }).RouteKey)
    .filter((key) => /^(GET|POST|PUT|PATCH|DELETE) \/api\//.test(key));
}
