import type { AddressSuggestion, GeocodeResult } from '../../../../shared/schemas/job';
import type { KnownCoordinates } from './request-form';

/** Address search waits 300 ms, needs 3 characters, shows 5 suggestions, and closes 150 ms after blur so a click on a suggestion still lands. */
export const ADDRESS_SEARCH_DEBOUNCE_MS = 300;
export const ADDRESS_SEARCH_MIN_CHARS = 3;
export const ADDRESS_SUGGESTION_LIMIT = 5;
export const ADDRESS_LIST_CLOSE_DELAY_MS = 150;

/** The request form's geolocation options: high accuracy, 15 s timeout, a fix up to a minute old. */
export const REQUEST_GEOLOCATION_OPTIONS: PositionOptions = { enableHighAccuracy: true, timeout: 15_000, maximumAge: 60_000 };

/** The text to search for, or null when it is too short to search (3 characters or more). */
export function addressSearchQuery(text: string): string | null {
  const query = text.trim();
  return query.length >= ADDRESS_SEARCH_MIN_CHARS ? query : null;
}

/**
 * Written as 'number road, city, state', leaving out the parts the geocoder did not give. When it gave
 * none of them the full display name is the best there is.
 */
export function formatAddress(suggestion: AddressSuggestion): string {
  const { houseNumber, road, city, state } = suggestion.address;
  const street = [houseNumber, road].map((part) => part?.trim()).filter(Boolean).join(' ');
  const parts = [street, city?.trim(), state?.trim()].filter(Boolean);
  return parts.length ? parts.join(', ') : suggestion.displayName.trim();
}

/** What the location box says when a GPS fix has no address it can be written as. */
export const ADDRESS_LOOKUP_FAILED_TEXT = 'We found your position but could not look up its address. Please type your street address.';

/** The reverse lookup's first usable address, or null when it failed, was unavailable or found nothing. */
export function detectedAddress(result: GeocodeResult | null | undefined): string | null {
  const first = result?.available === false ? undefined : result?.suggestions?.[0];
  const text = first ? formatAddress(first).trim() : '';
  return text || null;
}

/** What "Use my location" does with a fix: the box's new text, the position it carries, and a note to show. */
export interface GpsOutcome {
  text: string;
  coordinates: KnownCoordinates;
  /** Shown under the box; null when the fix came with its address. */
  note: string | null;
}

/**
 * A fix with its looked-up address fills the box. Without one the position is kept (it finds the
 * nearest pros and their arrival time) but the box keeps what the customer typed: coordinates are
 * not an address, and the server refuses them as one.
 */
export function gpsOutcome(latitude: number, longitude: number, lookup: GeocodeResult | null, typed: string): GpsOutcome {
  const coordinates: KnownCoordinates = { latitude, longitude, source: 'gps' };
  const address = detectedAddress(lookup);
  return address ? { text: address, coordinates, note: null } : { text: typed, coordinates, note: ADDRESS_LOOKUP_FAILED_TEXT };
}

export interface LocationToast {
  title: string;
  description: string;
}

/** GeolocationPositionError codes: 1 permission denied, 2 position unavailable, 3 timeout. */
export function geolocationErrorToast(code: number): LocationToast {
  switch (code) {
    case 1:
      return {
        title: 'Location Access Denied',
        description: 'Location access is blocked for this site. You can type your address in the location box instead.',
      };
    case 3:
      return { title: 'Location Timeout', description: 'Finding your location took too long. Try again, or type your address.' };
    default:
      return { title: 'Location Unavailable', description: 'Your device could not determine your location. Please type your address.' };
  }
}

export const GPS_NOT_SUPPORTED_TOAST: LocationToast = {
  title: 'GPS Not Supported',
  description: "Your browser doesn't support location services",
};

/**
 * The option a combobox key moves to (-1 is "none"); undefined for keys the list does not use.
 * Moving past either end wraps, as most listboxes do. Home and End stay with the text box (its caret),
 * as the ARIA combobox pattern asks of an editable combobox.
 */
export function nextActiveIndex(key: string, current: number, count: number): number | undefined {
  if (count === 0) return undefined;
  switch (key) {
    case 'ArrowDown':
      return current < 0 || current >= count - 1 ? 0 : current + 1;
    case 'ArrowUp':
      return current <= 0 ? count - 1 : current - 1;
    default:
      return undefined;
  }
}
