import type { AddressSuggestion, GeocodeResult } from '../../shared/schemas/job';
import { GEOCODER_TIMEOUT_MS } from '../common/clients';
import { addressOf, coordinate, SEARCH_LIMIT, text, unavailableBecause, type Geocoder, type GeocoderOperation } from './geocoders';

/**
 * A Nominatim-compatible service (GEOCODER 'nominatim', GEOCODER_URL), for an operator who runs one
 * or has agreed its use with whoever does. The public nominatim.openstreetmap.org is never the
 * default: its usage policy allows one request a second for a whole application and no
 * autocomplete, which a type-ahead breaks (infra/RUNBOOK.md).
 */

/** One Nominatim place (jsonv2 with addressdetails) as a suggestion; undefined if it lacks a name or position. */
export function toSuggestion(place: unknown): AddressSuggestion | undefined {
  if (typeof place !== 'object' || place === null) return undefined;
  const p = place as Record<string, unknown>;
  const displayName = text(p.display_name);
  const latitude = coordinate(p.lat, 90);
  const longitude = coordinate(p.lon, 180);
  if (!displayName || latitude === undefined || longitude === undefined) return undefined;
  const a = (typeof p.address === 'object' && p.address !== null ? p.address : {}) as Record<string, unknown>;
  const address = addressOf({
    houseNumber: text(a.house_number),
    road: text(a.road),
    neighbourhood: text(a.neighbourhood),
    city: text(a.city) ?? text(a.town) ?? text(a.village),
    state: text(a.state),
    postcode: text(a.postcode),
  });
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

export interface NominatimOptions {
  baseUrl: string;
  userAgent: string;
  timeoutMs?: number;
}

function failureReason(error: unknown): string {
  const name = error instanceof Error ? error.name : '';
  if (name === 'TimeoutError' || name === 'AbortError') return 'timeout';
  if (name === 'SyntaxError') return 'bad-json';
  return 'network';
}

export function createNominatimGeocoder({ baseUrl, userAgent, timeoutMs = GEOCODER_TIMEOUT_MS }: NominatimOptions): Geocoder {
  const base = baseUrl.replace(/\/+$/, '');

  async function call(
    operation: GeocoderOperation,
    params: Record<string, string>,
    read: (body: unknown) => AddressSuggestion[] | undefined,
  ): Promise<GeocodeResult> {
    const url = `${base}/${operation}?${new URLSearchParams({ format: 'jsonv2', addressdetails: '1', ...params })}`;
    const started = Date.now();
    try {
      const response = await fetch(url, {
        headers: { 'user-agent': userAgent, accept: 'application/json' },
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!response.ok) {
        await response.body?.cancel();
        return unavailableBecause('nominatim', operation, started, 'status', { status: response.status });
      }
      const suggestions = read(await response.json());
      if (!suggestions) return unavailableBecause('nominatim', operation, started, 'bad-response');
      return { suggestions, available: true };
    } catch (error) {
      return unavailableBecause('nominatim', operation, started, failureReason(error));
    }
  }

  return {
    search: (q) => call('search', { limit: String(SEARCH_LIMIT), 'accept-language': 'en', q }, searchSuggestions),
    reverse: (lat, lng) => call('reverse', { 'accept-language': 'en', lat: String(lat), lon: String(lng) }, reverseSuggestions),
  };
}
