import { bookingInputSchema } from './schemas/booking';
import type { Schema } from './validation';

/**
 * Every HTTP route, once (DESIGN.md section 3). The CDK stack makes one Lambda and one HTTP API
 * route per entry; the local runtime serves the same entries; a test ties the three together.
 * `name` is the handler file (functions/<name>.ts) and the sample event (events/<name>.json).
 */
export type Access = 'public' | 'customer';
export type TableGrant = 'none' | 'read' | 'write' | 'readwrite';

export interface RouteDef {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: `/api/${string}`;
  access: Access;
  /** JSON body schema; routes without one accept no body. */
  body?: Schema;
  /** Least-privilege grant on the single table. */
  table: TableGrant;
}

export const routes = [
  { name: 'get-config', method: 'GET', path: '/api/config', access: 'public', table: 'none' },
  { name: 'list-services', method: 'GET', path: '/api/services', access: 'public', table: 'read' },
  { name: 'get-service', method: 'GET', path: '/api/services/{slug}', access: 'public', table: 'read' },
  {
    name: 'create-booking',
    method: 'POST',
    path: '/api/bookings',
    access: 'public',
    body: bookingInputSchema,
    table: 'write',
  },
  { name: 'get-booking', method: 'GET', path: '/api/bookings/{id}', access: 'public', table: 'read' },
] as const satisfies readonly RouteDef[];

export type RouteName = (typeof routes)[number]['name'];

export type RouteOf<N extends RouteName> = Extract<(typeof routes)[number], { name: N }>;

export function routeByName<N extends RouteName>(name: N): RouteOf<N> {
  const route = routes.find((r) => r.name === name);
  if (!route) throw new Error(`No route named "${name}" in shared/routes.ts`);
  return route as RouteOf<N>;
}

/** API Gateway route key, e.g. "GET /api/bookings/{id}". */
export function routeKey(route: Pick<RouteDef, 'method' | 'path'>): string {
  return `${route.method} ${route.path}`;
}
