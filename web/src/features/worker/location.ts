import { MAX_FIX_ACCURACY_M, isValidLatLng } from '../../../../shared/domain/geo';

/** Options for navigator.geolocation (high accuracy, 30 s timeout, a fix up to a minute old). */
export const GEOLOCATION_OPTIONS: PositionOptions = { enableHighAccuracy: true, timeout: 30_000, maximumAge: 60_000 };

export interface LocationBody {
  latitude: number;
  longitude: number;
  accuracy?: number;
}

/**
 * The body of POST /api/workers/location from a browser fix; null for a fix off the globe, which
 * the server would refuse. An unusable accuracy is left out rather than sent. A plain range check
 * rather than the server's schema: the dashboard shares fixes from its first screen, and the
 * schema library is not worth its bytes there for two numbers (the server checks the body anyway).
 */
export function locationBody(coords: { latitude: number; longitude: number; accuracy?: number | null }): LocationBody | null {
  const body: LocationBody = { latitude: coords.latitude, longitude: coords.longitude };
  if (typeof coords.accuracy === 'number' && Number.isFinite(coords.accuracy) && coords.accuracy >= 0) body.accuracy = coords.accuracy;
  const tooVague = body.accuracy !== undefined && body.accuracy > MAX_FIX_ACCURACY_M;
  return isValidLatLng({ lat: body.latitude, lng: body.longitude }) && !tooVague ? body : null;
}
