import type * as z from 'zod/mini';
import type {
  BodySchemaName,
  BodySchemas,
  ParamSchemaName,
  ParamSchemas,
  QuerySchemaName,
  QuerySchemas,
  ResponseSchemaName,
  ResponseSchemas,
  RouteDef,
} from './route-types';
import { catalogRoutes } from './catalog/routes';
import { bookingsRoutes } from './bookings/routes';
import { jobsRoutes, jobsTimers } from './jobs/routes';
import { arrivalRoutes, arrivalTimers } from './arrival/routes';
import { paymentsRoutes } from './payments/routes';
import { documentsRoutes, documentsRecurring } from './documents/routes';
import { applicationsRoutes } from './applications/routes';
import { workersRoutes } from './workers/routes';
import { ownerRoutes, ownerRecurring } from './owner/routes';
import { identityRoutes } from './identity/routes';
import { mailRecurring, mailStreamConsumers } from './mail/routes';
import { realtimeRoutes, realtimeSocketRoutes } from './realtime/routes';
import { streamStreamConsumers } from './stream/routes';

export * from './route-types';

/**
 * Each area's slice of the manifest, by the area's name: the area's functions live in
 * functions/<area>/ (shared/function-files.ts), its product rules in functions/<area>/README.md.
 */
export const manifestAreas = {
  catalog: { routes: catalogRoutes },
  bookings: { routes: bookingsRoutes },
  jobs: { routes: jobsRoutes, timers: jobsTimers },
  arrival: { routes: arrivalRoutes, timers: arrivalTimers },
  payments: { routes: paymentsRoutes },
  documents: { routes: documentsRoutes, recurring: documentsRecurring },
  applications: { routes: applicationsRoutes },
  workers: { routes: workersRoutes },
  owner: { routes: ownerRoutes, recurring: ownerRecurring },
  identity: { routes: identityRoutes },
  mail: { recurring: mailRecurring, streamConsumers: mailStreamConsumers },
  realtime: { routes: realtimeRoutes, socketRoutes: realtimeSocketRoutes },
  stream: { streamConsumers: streamStreamConsumers },
} as const;

/**
 * Every HTTP route, once. The CDK stack makes one Lambda and one HTTP API
 * route per entry; the local runtime serves the same entries; a test ties the three together.
 * `name` is the handler file (functions/<area>/<name>.ts) and the sample event (events/<name>.json).
 */
export const routes = [...catalogRoutes, ...bookingsRoutes, ...jobsRoutes, ...arrivalRoutes, ...paymentsRoutes, ...documentsRoutes, ...applicationsRoutes, ...workersRoutes, ...ownerRoutes, ...identityRoutes, ...realtimeRoutes] as const;

export const socketRoutes = [...realtimeSocketRoutes] as const;

export const recurring = [...documentsRecurring, ...ownerRecurring, ...mailRecurring] as const;

export const timers = [...jobsTimers, ...arrivalTimers] as const;

export type TimerName = (typeof timers)[number]['name'];

export const streamConsumers = [...mailStreamConsumers, ...streamStreamConsumers] as const;


/** The routes the CDK stack deploys, on every stage: all but the local runtime's own (dev-login). */
export const deployedRoutes: readonly RouteDef[] = (routes as readonly RouteDef[]).filter((r) => !r.localRuntimeOnly);

export type RouteName = (typeof routes)[number]['name'];

export type RouteOf<N extends RouteName> = Extract<(typeof routes)[number], { name: N }>;

/** The names in a path template: "/api/jobs/{id}/state" gives "id". */
export type PathParamNames<P extends string> = P extends `${string}{${infer K}}${infer Rest}` ? K | PathParamNames<Rest> : never;

/**
 * What a route's path parameters are, as the handler receives them (after the stack checked them):
 * the params schema's output where the manifest names one, else a string per `{name}` in the path.
 */
export type ParamsOf<N extends RouteName> =
  RouteOf<N> extends { params: infer S extends ParamSchemaName }
    ? z.output<ParamSchemas[S]>
    : { [K in PathParamNames<RouteOf<N>['path']>]: string };

/**
 * A route's query string, parsed (numbers as numbers): what the handler receives, and what a client
 * sends (each value as String(value)). Routes without a query schema take none: `undefined`.
 */
export type QueryOf<N extends RouteName> =
  RouteOf<N> extends { query: infer S extends QuerySchemaName } ? z.output<QuerySchemas[S]> : undefined;

/** A route's query string as a client sends it (the schema's input: values with defaults optional). */
export type QueryInputOf<N extends RouteName> =
  RouteOf<N> extends { query: infer S extends QuerySchemaName } ? z.input<QuerySchemas[S]> : undefined;

/** A route's path parameters as a client sends them (strings, before the stack checks them). */
export type ParamsInputOf<N extends RouteName> =
  RouteOf<N> extends { params: infer S extends ParamSchemaName }
    ? z.input<ParamSchemas[S]>
    : { [K in PathParamNames<RouteOf<N>['path']>]: string };

/** A route's JSON body as a client sends it (the schema's input); `undefined` for routes without one. */
export type BodyOf<N extends RouteName> =
  RouteOf<N> extends { body: infer S extends BodySchemaName } ? z.input<BodySchemas[S]> : undefined;

/** The body of a route's 2xx answer: its response schema's output (`undefined` for a 204). */
export type ResponseOf<N extends RouteName> =
  RouteOf<N> extends { response: infer S extends ResponseSchemaName } ? z.output<ResponseSchemas[S]> : unknown;

export function routeByName<N extends RouteName>(name: N): RouteOf<N> {
  const route = routes.find((r) => r.name === name);
  if (!route) throw new Error(`No route named "${name}" in shared/routes.ts`);
  return route as RouteOf<N>;
}

/** API Gateway route key, e.g. "GET /api/bookings/{id}". */
export function routeKey(route: Pick<RouteDef, 'method' | 'path'>): string {
  return `${route.method} ${route.path}`;
}
