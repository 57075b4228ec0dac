import type { AddressSuggestion, GeocodeResult } from '../../shared/schemas/job';
import { logger } from '../common/logger';

/**
 * What every geocoder adapter (nominatim.ts, amazon-location.ts) shares: the two calls, the answer
 * when it cannot give one, and how it says so in the log.
 */

export const SEARCH_LIMIT = 5;

export interface Geocoder {
  search(normalisedQuery: string): Promise<GeocodeResult>;
  reverse(lat: number, lng: number): Promise<GeocodeResult>;
}

export type GeocoderOperation = 'search' | 'reverse';

export const unavailable = (): GeocodeResult => ({ suggestions: [], available: false });

/**
 * Logs why a call gave no answer and returns that non-answer. Never the query or the coordinates:
 * they may be someone's home address. Only the operation, a reason code (an error's name, never its
 * message, which may repeat the input) and numbers.
 */
export function unavailableBecause(
  geocoder: string,
  operation: GeocoderOperation,
  started: number,
  reason: string,
  extra: Record<string, number> = {},
): GeocodeResult {
  logger.warn('Geocoder unavailable', { geocoder, operation, reason, ms: Date.now() - started, ...extra });
  return unavailable();
}

export const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

/** A finite number within ±limit (a latitude 90, a longitude 180), from a number or a numeric string. */
export function coordinate(value: unknown, limit: number): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  return Number.isFinite(n) && Math.abs(n) <= limit ? n : undefined;
}

/** The address parts a suggestion carries, without undefined members: the answer is stored and compared as it is sent. */
export function addressOf(fields: AddressSuggestion['address']): AddressSuggestion['address'] {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
}
