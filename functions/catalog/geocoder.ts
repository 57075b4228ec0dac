import type { AddressSuggestion, GeocodeResult } from '../../shared/schemas/job';
import { MAX_ADDRESS_QUERY_LENGTH, MIN_ADDRESS_QUERY_LENGTH, normaliseAddressQuery, querySchemas, roundCoordinate } from '../../shared/schemas/query';
import { geocodeCache } from './data/geocode-cache';
import { env } from '../common/env';
import { validateBody } from '../common/http';
import { logger } from '../common/logger';

/**
 * The one adapter for the geocoder behind GET /api/geocode and /api/geocode/reverse: a
 * Nominatim-compatible service at GEOCODER_URL, answers cached in the table so browsers never meet
 * its rate limits. Whatever goes wrong there, callers get `{ suggestions: [], available: false }`:
 * address search is a convenience, and the request form works without it.
 */

export const GEOCODER_TIMEOUT_MS = 3000;
export const SEARCH_LIMIT = 5;

const unavailable = (): GeocodeResult => ({ suggestions: [], available: false });

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

// ---- Nominatim's answers ---------------------------------------------------------------------

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

function number(value: unknown, limit: number): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  return Number.isFinite(n) && Math.abs(n) <= limit ? n : undefined;
}

/** One Nominatim place (jsonv2 with addressdetails) as a suggestion; undefined if it lacks a name or position. */
export function toSuggestion(place: unknown): AddressSuggestion | undefined {
  if (typeof place !== 'object' || place === null) return undefined;
  const p = place as Record<string, unknown>;
  const displayName = text(p.display_name);
  const latitude = number(p.lat, 90);
  const longitude = number(p.lon, 180);
  if (!displayName || latitude === undefined || longitude === undefined) return undefined;
  const a = (typeof p.address === 'object' && p.address !== null ? p.address : {}) as Record<string, unknown>;
  const fields = {
    houseNumber: text(a.house_number),
    road: text(a.road),
    neighbourhood: text(a.neighbourhood),
    city: text(a.city) ?? text(a.town) ?? text(a.village),
    state: text(a.state),
    postcode: text(a.postcode),
  };
  // No undefined members: the answer is stored and compared as it is sent.
  const address = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
  return { displayName, latitude, longitude, address };
}

/** A search answer is an array of places; anything else is not a Nominatim answer. */
export function searchSuggestions(body: unknown): AddressSuggestion[] | undefined {
  if (!Array.isArray(body)) return undefined;
  return body
    .map(toSuggestion)
    .filter((s): s is AddressSuggestion => s !== undefined)
    .slice(0, SEARCH_LIMIT);
}

/** A reverse answer is one place, or `{ error }` when nothing is there (an answer, not a failure). */
export function reverseSuggestions(body: unknown): AddressSuggestion[] | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  if ('error' in body) return [];
  const suggestion = toSuggestion(body);
  return suggestion ? [suggestion] : undefined;
}

// ---- The calls ------------------------------------------------------------------------------

export interface GeocoderOptions {
  baseUrl: string;
  userAgent: string;
  timeoutMs?: number;
}

export interface Geocoder {
  search(normalisedQuery: string): Promise<GeocodeResult>;
  reverse(lat: number, lng: number): Promise<GeocodeResult>;
}

type Operation = 'search' | 'reverse';

function failureReason(error: unknown): string {
  const name = error instanceof Error ? error.name : '';
  if (name === 'TimeoutError' || name === 'AbortError') return 'timeout';
  if (name === 'SyntaxError') return 'bad-json';
  return 'network';
}

export function createGeocoder({ baseUrl, userAgent, timeoutMs = GEOCODER_TIMEOUT_MS }: GeocoderOptions): Geocoder {
  const base = baseUrl.replace(/\/+$/, '');

  async function call(
    operation: Operation,
    params: Record<string, string>,
    read: (body: unknown) => AddressSuggestion[] | undefined,
  ): Promise<GeocodeResult> {
    const url = `${base}/${operation}?${new URLSearchParams({ format: 'jsonv2', addressdetails: '1', ...params })}`;
    const started = Date.now();
    // Never the query or the coordinates: they may be someone's home address.
    const warn = (reason: string, extra: Record<string, number> = {}) =>
      logger.warn('Geocoder unavailable', { operation, reason, ms: Date.now() - started, ...extra });
    try {
      const response = await fetch(url, {
        headers: { 'user-agent': userAgent, accept: 'application/json' },
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!response.ok) {
        await response.body?.cancel();
        warn('status', { status: response.status });
        return unavailable();
      }
      const suggestions = read(await response.json());
      if (!suggestions) {
        warn('bad-response');
        return unavailable();
      }
      return { suggestions, available: true };
    } catch (error) {
      warn(failureReason(error));
      return unavailable();
    }
  }

  return {
    search: (q) =>
      call('search', { limit: String(SEARCH_LIMIT), 'accept-language': 'en', q }, searchSuggestions),
    reverse: (lat, lng) =>
      call('reverse', { 'accept-language': 'en', lat: String(lat), lon: String(lng) }, reverseSuggestions),
  };
}

/** Nominatim's usage policy asks every client to identify itself with a way to reach it. */
export const geocoder = createGeocoder({
  baseUrl: env.GEOCODER_URL,
  userAgent: `Fixly home-services marketplace (${env.SUPPORT_EMAIL})`,
});

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
  return cached(normalisedQuery, () => geocoder.search(normalisedQuery));
}

/** The address at coordinates already rounded by coordinatesFrom. */
export function reverseGeocode(lat: number, lng: number): Promise<GeocodeResult> {
  return cached(reverseCacheKey(lat, lng), () => geocoder.reverse(lat, lng));
}
