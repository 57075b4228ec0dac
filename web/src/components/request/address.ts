import type { AddressSuggestion } from '../../../../shared/schemas/job';

/** Spec section 9: address search waits 300 ms, needs 3 characters, shows 5 suggestions, closes 150 ms after blur. */
export const ADDRESS_SEARCH_DEBOUNCE_MS = 300;
export const ADDRESS_SEARCH_MIN_CHARS = 3;
export const ADDRESS_SUGGESTION_LIMIT = 5;
export const ADDRESS_LIST_CLOSE_DELAY_MS = 150;

/** Spec section 9: the request form's geolocation options. */
export const REQUEST_GEOLOCATION_OPTIONS: PositionOptions = { enableHighAccuracy: true, timeout: 15_000, maximumAge: 60_000 };

/** The text to search for, or null when it is too short to search (spec: 3 characters or more). */
export function addressSearchQuery(text: string): string | null {
  const query = text.trim();
  return query.length >= ADDRESS_SEARCH_MIN_CHARS ? query : null;
}

export const addressSearchUrl = (query: string) => `/api/geocode?q=${encodeURIComponent(query)}`;
export const reverseGeocodeUrl = (latitude: number, longitude: number) =>
  `/api/geocode/reverse?lat=${encodeURIComponent(String(latitude))}&lng=${encodeURIComponent(String(longitude))}`;

/**
 * Spec: 'number road, city, state', leaving out the parts the geocoder did not give. When it gave
 * none of them the full display name is the best there is.
 */
export function formatAddress(suggestion: AddressSuggestion): string {
  const { houseNumber, road, city, state } = suggestion.address;
  const street = [houseNumber, road].map((part) => part?.trim()).filter(Boolean).join(' ');
  const parts = [street, city?.trim(), state?.trim()].filter(Boolean);
  return parts.length ? parts.join(', ') : suggestion.displayName.trim();
}

/** What goes in the box when a position has no address (spec section 8): the coordinates, 6 decimals. */
export function formatCoordinates(latitude: number, longitude: number): string {
  return `${latitude.toFixed(6)}, ${longitude.toFixed(6)}`;
}

/** The reverse lookup's first usable address, else the coordinates themselves. */
export function detectedLocationText(latitude: number, longitude: number, suggestions: readonly AddressSuggestion[] | null): string {
  const first = suggestions?.[0];
  const text = first ? formatAddress(first) : '';
  return text || formatCoordinates(latitude, longitude);
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
