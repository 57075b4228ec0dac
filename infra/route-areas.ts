import type { RouteDef } from '../shared/routes';

/**
 * Which nested stack holds a route's function, integration, route and permission (four of a
 * CloudFormation template's 500 resources each), from the first segment of its path.
 *
 * The mapping is written out rather than computed because a route must never move between nested
 * stacks once deployed: the new stack would create the same route key while the old one still
 * holds it, and API Gateway refuses the duplicate. A new path segment is therefore placed here by
 * hand, once, and the synth stops until it is.
 */
export const routeAreas = {
  customers: ['bookings', 'track', 'requests', 'estimates', 'hire', 'customer', 'invoices', 'verify-work', 'create-checkout-session', 'client-verification', 'company-applications'],
  pros: ['workers', 'jobs', 'documents', 'worker-applications', 'worker-reviews', 'worker-profiles'],
  owner: ['admin'],
  platform: ['config', 'services', 'auth', 'upload', 'geocode', 'stripe', 'push', 'notifications'],
} as const satisfies Record<string, readonly string[]>;

export type RouteArea = keyof typeof routeAreas;

/**
 * At four resources a route, 100 routes make 400 of a nested template's 500, leaving room for the
 * parameters' and outputs' few extras. An area that outgrows it gets a second area in the table
 * above (new path segments go there), never a reshuffle of deployed routes.
 */
export const MAX_ROUTES_PER_AREA = 100;

const areaBySegment = new Map<string, RouteArea>(
  Object.entries(routeAreas).flatMap(([area, segments]) => segments.map((segment) => [segment, area as RouteArea] as const)),
);

/** The area of a route, or a synth-stopping error that says where to place a new path segment. */
export function areaOf(route: Pick<RouteDef, 'name' | 'path'>): RouteArea {
  const segment = route.path.split('/')[2] ?? '';
  const area = areaBySegment.get(segment);
  if (!area) {
    throw new Error(
      `route ${route.name} (${route.path}): no area holds the path segment "${segment}"; ` +
        'add it to one of the lists in infra/route-areas.ts (each area is a nested stack)',
    );
  }
  return area;
}

/** The routes of each area, refusing an area past its room. */
export function routesByArea<R extends Pick<RouteDef, 'name' | 'path'>>(routes: readonly R[]): Map<RouteArea, R[]> {
  const byArea = new Map<RouteArea, R[]>();
  for (const route of routes) {
    const area = areaOf(route);
    byArea.set(area, [...(byArea.get(area) ?? []), route]);
  }
  for (const [area, list] of byArea) {
    if (list.length > MAX_ROUTES_PER_AREA) {
      throw new Error(
        `area "${area}" has ${list.length} routes, more than the ${MAX_ROUTES_PER_AREA} a nested stack holds: ` +
          'give new path segments an area of their own in infra/route-areas.ts',
      );
    }
  }
  return byArea;
}
