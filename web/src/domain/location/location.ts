import { distanceKm, type LatLng } from '../../../../shared/domain/geo';
import type { AddressSuggestion, GeocodeResult } from '../../../../shared/schemas/job';

/**
 * What every location screen agrees on: the browser fix, the location error texts, the GPS
 * panel's geolocation settings and how an address is written. The client
 * dashboard, the worker's job page and the shared GPS panel all read them from here.
 */

/** The GPS panel's geolocation settings: high accuracy, 30 s timeout, a fix up to 60 s old. */
export const PANEL_POSITION_OPTIONS: PositionOptions = { enableHighAccuracy: true, timeout: 30_000, maximumAge: 60_000 };

export interface Fix {
  latitude: number;
  longitude: number;
  /** Metres. */
  accuracy: number;
  /** Milliseconds since the epoch, as the browser stamped it. */
  timestamp: number;
}

/** A location fix: a GPS fix, or a typed address stored as 0/0 with accuracy 0. */
export interface LocationFix extends Fix {
  address: string;
  source: 'gps' | 'manual';
}

export type LocationErrorKind = 'unsupported' | 'denied' | 'unavailable' | 'timeout';

/** GeolocationPositionError codes: 1 permission denied, 2 position unavailable, 3 timeout. */
export function locationErrorKind(code: number): Exclude<LocationErrorKind, 'unsupported'> {
  if (code === 1) return 'denied';
  if (code === 3) return 'timeout';
  return 'unavailable';
}

/**
 * The location messages ("GPS Not Supported - Your browser doesn't support
 * location services", "Location Access Denied", "Location Unavailable", "Location Timeout" with
 * "needs location access", "cannot detect location", "location timeout"), each saying what to do next.
 */
export const locationErrorMessages: Record<LocationErrorKind, { title: string; description: string }> = {
  unsupported: { title: 'GPS Not Supported', description: "Your browser doesn't support location services. Enter your address instead." },
  denied: {
    title: 'Location Access Denied',
    description: 'This needs location access. Allow it in your browser settings, or enter your address instead.',
  },
  unavailable: { title: 'Location Unavailable', description: 'We cannot detect your location right now. Try again, or enter your address instead.' },
  timeout: { title: 'Location Timeout', description: 'Finding your location took too long (location timeout). Try again, or enter your address instead.' },
};

/** A suggestion written as "number road, city, state", or its display name. */
export function formatAddress(suggestion: AddressSuggestion): string {
  const { houseNumber, road, city, state } = suggestion.address;
  const street = [houseNumber, road].filter(Boolean).join(' ');
  const parts = [street, city, state].filter(Boolean);
  return parts.length > 0 && (road || city) ? parts.join(', ') : suggestion.displayName;
}

/** The address of a reverse lookup, or null when the geocoder was unreachable or found nothing. */
export function addressOf(result: GeocodeResult | undefined): string | null {
  const first = result?.available ? result.suggestions[0] : undefined;
  const address = first ? formatAddress(first).trim() : '';
  return address || null;
}

/** Coordinates with 6 decimals (about 10 cm): how the panel shows a position, never an address. */
export function coordinatesText(latitude: number, longitude: number): string {
  return `${latitude.toFixed(6)}, ${longitude.toFixed(6)}`;
}

/** A fix's accuracy in whole metres. */
export function accuracyText(metres: number): string {
  return `±${Math.round(metres)} m`;
}

/** What the panel says when it has a position but the geocoder gave no address for it (the location box's words). */
export { ADDRESS_LOOKUP_FAILED_TEXT as ADDRESS_NOT_FOUND_TEXT } from '../request-form/address';

/**
 * A location as an address for a form: the looked-up address of a fix, else the address the
 * customer typed, else nothing for them to type. Never the coordinates: a position is not an
 * address, and the server refuses one in its place.
 */
export function locationText(fix: Fix | null, address: string | null, manualAddress: string): string {
  if (fix) return address ?? '';
  return manualAddress;
}

/** A manual address is required after trimming ("Address Required"). */
export function validateManualAddress(value: string): { ok: true; address: string } | { ok: false; message: string } {
  const address = value.trim();
  return address ? { ok: true, address } : { ok: false, message: 'Address Required - Please enter your address' };
}

/** A typed address is kept as a location fix at 0, 0 with accuracy 0: it has no coordinates of its own. */
export function manualLocation(address: string, now: number): LocationFix {
  return { latitude: 0, longitude: 0, accuracy: 0, timestamp: now, address, source: 'manual' };
}

/** A fix at 0, 0 with accuracy 0 is a typed address, not a position: nothing to measure from or share. */
export function isPosition(fix: Fix | null): fix is Fix {
  return fix !== null && !(fix.latitude === 0 && fix.longitude === 0 && fix.accuracy === 0);
}

/** How far a shared position moves before its address is looked up again: the geocoder is asked about a street, not every step. */
export const ADDRESS_LOOKUP_METRES = 50;

/** The point to look the address up at: the same one until the fix has moved more than 50 m from it. */
export function nextLookupPoint(previous: LatLng | null, fix: Fix | null): LatLng | null {
  if (!isPosition(fix)) return null;
  const here = { lat: fix.latitude, lng: fix.longitude };
  if (previous && distanceKm(previous, here) * 1000 <= ADDRESS_LOOKUP_METRES) return previous;
  return here;
}
