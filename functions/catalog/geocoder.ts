import type { GeocodeResult } from '../../shared/schemas/job';
import { MAX_ADDRESS_QUERY_LENGTH, MIN_ADDRESS_QUERY_LENGTH, normaliseAddressQuery, querySchemas, roundCoordinate } from '../../shared/schemas/query';
import { geocodeCache } from './data/geocode-cache';
import { createAmazonLocationGeocoder } from './amazon-location';
import { unavailable, type Geocoder } from './geocoders';
import { createNominatimGeocoder } from './nominatim';
import { geoPlaces } from '../common/clients';
import { env, type Env } from '../common/env';
import { validateBody } from '../common/http';

/**
 * The one way to the geocoder behind GET /api/geocode and /api/geocode/reverse: the one GEOCODER
 * names (Amazon Location in the cloud, none on a laptop unless chosen), answers cached in the table
 * so repeated searches cost nothing and meet no rate limit. Whatever goes wrong there, callers get
 * `{ suggestions: [], available: false }`: address search is a convenience, and the request form
 * works without it.
 */

/**
 * The inputs: GET /api/geocode's `q` and /reverse's `lat` and `lng` are checked by the handler stack
 * with the manifest's query schemas (shared/schemas/query.ts); these give the same answers to a
 * caller holding a query string of its own.
 */
export { MAX_ADDRESS_QUERY_LENGTH as MAX_QUERY_LENGTH, MIN_ADDRESS_QUERY_LENGTH as MIN_QUERY_LENGTH, normaliseAddressQuery as normaliseQuery, roundCoordinate };

/** The normalised `q` of GET /api/geocode, or a 400 saying what to change. */
export function searchQueryFrom(query: Record<string, string | undefined>): string {
  return validateBody(querySchemas.addressSearch, query).q;
}

/** `lat` and `lng` of GET /api/geocode/reverse, rounded to 5 decimals, or a 400 naming the bad one. */
export function coordinatesFrom(query: Record<string, string | undefined>): { lat: number; lng: number } {
  const { lat, lng } = validateBody(querySchemas.coordinates, query);
  return { lat, lng };
}

export const reverseCacheKey = (lat: number, lng: number) => `rev:${lat},${lng}`;

/** No geocoder chosen: no suggestions, at once, and nothing leaves the machine. Not a failure, so nothing is logged. */
const noGeocoder: Geocoder = {
  search: async () => unavailable(),
  reverse: async () => unavailable(),
};

/** The geocoder the settings name. */
export function geocoderFor(settings: Pick<Env, 'GEOCODER' | 'GEOCODER_URL' | 'SUPPORT_EMAIL'>): Geocoder {
  switch (settings.GEOCODER) {
    case 'amazon-location':
      return createAmazonLocationGeocoder({ client: geoPlaces() });
    case 'nominatim':
      return createNominatimGeocoder({
        baseUrl: settings.GEOCODER_URL ?? '',
        // Nominatim's usage policy asks every client to identify itself with a way to reach it.
        userAgent: `Fixly home-services marketplace (${settings.SUPPORT_EMAIL})`,
      });
    case 'none':
      return noGeocoder;
  }
}

let chosen: Geocoder | undefined;
/** Made on first use: only the two geocode functions load this module, and only a call needs a client. */
const geocoder = () => (chosen ??= geocoderFor(env));

// ---- Cached ---------------------------------------------------------------------------------

/** A fresh cached answer, else the geocoder's (remembered only when it answered). */
async function cached(cacheKey: string, lookup: () => Promise<GeocodeResult>): Promise<GeocodeResult> {
  const hit = await geocodeCache.findFresh(cacheKey);
  if (hit) return { suggestions: hit, available: true };
  const result = await lookup();
  if (result.available) await geocodeCache.remember(cacheKey, result.suggestions);
  return result;
}

/** Up to 5 suggestions for a query already normalised by searchQueryFrom. */
export function searchAddresses(normalisedQuery: string): Promise<GeocodeResult> {
  return cached(normalisedQuery, () => geocoder().search(normalisedQuery));
}

/** The address at coordinates already rounded by coordinatesFrom. */
export function reverseGeocode(lat: number, lng: number): Promise<GeocodeResult> {
  return cached(reverseCacheKey(lat, lng), () => geocoder().reverse(lat, lng));
}
