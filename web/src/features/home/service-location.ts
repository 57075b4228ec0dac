import type { StartingLocation } from '../../domain/request-form/request-form-panel';

/**
 * The home page's service location (client-held state, like the worker type): the address the
 * customer's requests start from, kept in this browser's local storage only, never sent until a
 * request is.
 */
export const SERVICE_LOCATION_KEY = 'fixly.serviceLocation';

function isCoordinate(value: unknown, limit: number): value is number {
  return typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= limit;
}

/** The stored value, or null when it is missing or not what this page wrote (an older shape, a hand edit). */
export function parseServiceLocation(raw: string | null): StartingLocation | null {
  if (!raw) return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!value || typeof value !== 'object') return null;
  const { text, coordinates } = value as { text?: unknown; coordinates?: unknown };
  if (typeof text !== 'string' || !text.trim() || text.length > 200) return null;
  if (coordinates === null || coordinates === undefined) return { text: text.trim(), coordinates: null };
  const { latitude, longitude, source } = coordinates as { latitude?: unknown; longitude?: unknown; source?: unknown };
  if (!isCoordinate(latitude, 90) || !isCoordinate(longitude, 180) || (source !== 'gps' && source !== 'suggestion')) {
    // The address is still the customer's; only the position is dropped.
    return { text: text.trim(), coordinates: null };
  }
  return { text: text.trim(), coordinates: { latitude, longitude, source } };
}

export function readServiceLocation(): StartingLocation | null {
  try {
    return parseServiceLocation(localStorage.getItem(SERVICE_LOCATION_KEY));
  } catch {
    // Storage blocked (private mode, a policy): the box simply starts empty.
    return null;
  }
}

export function saveServiceLocation(location: StartingLocation | null): void {
  try {
    if (location) localStorage.setItem(SERVICE_LOCATION_KEY, JSON.stringify(location));
    else localStorage.removeItem(SERVICE_LOCATION_KEY);
  } catch {
    // Not kept across visits; it still applies to this visit's requests.
  }
}
