import { trackedBookingId } from '../features/tracking/booking-query';
import { fetchEarly } from '../lib/early-fetch';
import { endpointRequest } from '../lib/endpoint';
import { patterns } from '../lib/paths';

/**
 * The API reads a screen makes as it mounts that depend on its address, so the prerendered HTML
 * cannot name them (vite-prerender.ts preloads the fixed ones). main.tsx starts these before React
 * does: the tracked job of /track#id= (or an old /track?id=) is on its way while the page hydrates,
 * instead of being asked for after it. Each is the exact URL the screen's query fetches, so the query
 * takes the early answer.
 */
export function addressApiGets({ pathname, search, hash }: { pathname: string; search: string; hash: string }): string[] {
  if (pathname === patterns.track) {
    const id = trackedBookingId({ search, hash });
    // The URL of queryKeys.trackedJob(id) (route-data.test.ts holds them equal), built without the
    // key module so that it stays out of the entry chunk.
    return id ? [endpointRequest('GET /api/track/{id}', { id }).path] : [];
  }
  return [];
}

export function startAddressApiGets(location: { pathname: string; search: string; hash: string }): void {
  for (const url of addressApiGets(location)) fetchEarly(url);
}
