import type { AddressSuggestion, GeocodeResult } from '../../../../shared/schemas/job';

/** The dashboard panel's geolocation settings (spec section 9). */
export const dashboardPositionOptions: PositionOptions = { enableHighAccuracy: true, timeout: 30_000, maximumAge: 60_000 };

export interface Fix {
  latitude: number;
  longitude: number;
  /** Metres. */
  accuracy: number;
  /** Milliseconds since the epoch, as the browser stamped it. */
  timestamp: number;
}

export type LocationErrorKind = 'unsupported' | 'denied' | 'unavailable' | 'timeout';

/** GeolocationPositionError codes: 1 permission denied, 2 position unavailable, 3 timeout. */
export function locationErrorKind(code: number): Exclude<LocationErrorKind, 'unsupported'> {
  if (code === 1) return 'denied';
  if (code === 3) return 'timeout';
  return 'unavailable';
}

/** The spec's location messages (section 8), with what the customer can do next. */
export const locationErrorMessages: Record<LocationErrorKind, { title: string; description: string }> = {
  unsupported: { title: 'GPS Not Supported', description: "Your browser doesn't support location services. Enter your address instead." },
  denied: {
    title: 'Location Access Denied',
    description: 'Measuring distances needs location access. Allow it in your browser settings, or enter your address instead.',
  },
  unavailable: { title: 'Location Unavailable', description: 'We cannot detect your location right now. Try again, or enter your address instead.' },
  timeout: { title: 'Location Timeout', description: 'Finding your location took too long. Try again, or enter your address instead.' },
};

/** A suggestion written as "number road, city, state" (spec section 7), or its display name. */
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

/**
 * What the hire form's location starts as: the looked-up address, else the coordinates with 6
 * decimals (spec section 8, reverse lookup fails), else the address the customer typed.
 */
export function locationText(fix: Fix | null, address: string | null, manualAddress: string): string {
  if (fix) return address ?? `${fix.latitude.toFixed(6)}, ${fix.longitude.toFixed(6)}`;
  return manualAddress;
}

/** Spec section 5: a manual address is required after trimming ("Address Required"). */
export function validateManualAddress(value: string): { ok: true; address: string } | { ok: false; message: string } {
  const address = value.trim();
  return address ? { ok: true, address } : { ok: false, message: 'Address Required - Please enter your address' };
}
