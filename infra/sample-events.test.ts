import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { routeExamples } from '../shared/route-examples';
import { routes, type RouteDef, type RouteName } from '../shared/routes';
import { paramSchemas } from '../shared/schemas/params';
import { querySchemas } from '../shared/schemas/query';
import { validate, type Schema } from '../shared/validation';
import { sampleEventFile, sampleEventText } from './testing/sample-events';

/**
 * The routes' sample events are made from the manifest and the examples beside it
 * (shared/route-examples.ts) by `npm run events`: a committed file that differs from what it makes
 * fails here, so no sample drifts from its route. The examples themselves pass the checks the stack
 * makes, so a test starting from a sample starts from a request the route takes.
 */
const manifest = routes as readonly RouteDef[];

/** Every body schema of shared/schemas/, by its export name (the manifest's `body`). */
async function bodySchemas(): Promise<Record<string, Schema>> {
  const modules = import.meta.glob(['../shared/schemas/*.ts', '!../shared/schemas/*.test.ts']);
  return Object.assign({}, ...(await Promise.all(Object.values(modules).map((load) => load())))) as Record<string, Schema>;
}

describe('route sample events (events/<name>.json)', () => {
  describe.each(manifest.map((r) => [r.name, r] as const))('%s', (_, route) => {
    const example = routeExamples[route.name as RouteName] as
      | { params?: Record<string, string>; query?: Record<string, string>; body?: unknown; rawBody?: string }
      | undefined;

    it('is exactly what npm run events makes of the manifest and its example', () => {
      // Prepare
      const file = sampleEventFile(route);

      // Act
      const committed = existsSync(file) ? readFileSync(file, 'utf8') : '';

      // Assess
      expect(committed, `events/${route.name}.json is not what \`npm run events\` writes: run it`).toBe(sampleEventText(route));
    });

    it('has an example the stack would let through: its parameters, query and body', async () => {
      // Act
      const params = route.params ? validate(paramSchemas[route.params] as Schema, example?.params ?? {}) : { success: true };
      const query = route.query ? validate(querySchemas[route.query] as Schema, example?.query ?? {}) : { success: true };
      const body = route.body ? validate((await bodySchemas())[route.body]!, example?.body) : { success: true };

      // Assess
      expect(params).toMatchObject({ success: true });
      expect(query).toMatchObject({ success: true });
      expect(body).toMatchObject({ success: true });
      expect(example?.body !== undefined || example?.rawBody !== undefined, 'a body exactly when the route takes one').toBe(Boolean(route.body || route.rawBody));
    });
  });
});
