import { workerLocationSchema } from '../../../../shared/schemas/job';
import { validate } from '../../../../shared/validation';

/** Options for navigator.geolocation (high accuracy, 30 s timeout, a fix up to a minute old). */
export const GEOLOCATION_OPTIONS: PositionOptions = { enableHighAccuracy: true, timeout: 30_000, maximumAge: 60_000 };

export interface LocationBody {
  latitude: number;
  longitude: number;
  accuracy?: number;
}

/**
 * The body of POST /api/workers/location from a browser fix, checked with the server's schema;
 * null for a fix the server would refuse. An unusable accuracy is left out rather than sent.
 */
export function locationBody(coords: { latitude: number; longitude: number; accuracy?: number | null }): LocationBody | null {
  const body: LocationBody = { latitude: coords.latitude, longitude: coords.longitude };
  if (typeof coords.accuracy === 'number' && Number.isFinite(coords.accuracy) && coords.accuracy >= 0) body.accuracy = coords.accuracy;
  return validate(workerLocationSchema, body).success ? body : null;
}
