import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeKey, routes } from '../shared/routes';
import { testSynth } from './testing/synth';

/**
 * DESIGN.md section 3: every manifest entry has a handler, a sample event and a CDK route.
 * Handler modules are read as text, never imported: they parse their environment at import.
 */
const root = fileURLToPath(new URL('..', import.meta.url));

const synths = testSynth();
let routeKeys: string[];

beforeAll(() => {
  // Prepare (shared): one synth with bundling skipped.
  const { template } = synths.synth({ stage: 'test' });
  const resources = template.findResources('AWS::ApiGatewayV2::Route');
  routeKeys = Object.values(resources).map((r) => (r as { Properties: { RouteKey: string } }).Properties.RouteKey);
});

afterAll(() => synths.cleanup());

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
    it('has its handler file functions/<name>.ts exporting handler', () => {
      // Prepare
      const file = join(root, 'functions', `${name}.ts`);

      // Act
      const source = existsSync(file) ? readFileSync(file, 'utf8') : '';

      // Assess
      expect(existsSync(file), `missing ${file}`).toBe(true);
      expect(source).toMatch(/export const handler\b/);
    });

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

    const deployed = !('stages' in route) || (route.stages as readonly string[]).includes('test');
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
