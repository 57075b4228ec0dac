import { GeocodeCommand, ReverseGeocodeCommand, type GeoPlacesClient, type GeocodeResultItem, type ReverseGeocodeResultItem } from '@aws-sdk/client-geo-places';
import type { AddressSuggestion, GeocodeResult } from '../../shared/schemas/job';
import { GEOCODER_TIMEOUT_MS } from '../common/clients';
import { addressOf, coordinate, SEARCH_LIMIT, text, unavailableBecause, type Geocoder, type GeocoderOperation } from './geocoders';

/**
 * Amazon Location Service's Places API (v2), the cloud's geocoder: Geocode for a typed address and
 * ReverseGeocode for a position, both asked with IntendedUse 'Storage' because their answers are
 * kept in the table for 30 days (functions/catalog/README.md says why these two calls and not
 * Autocomplete or Suggest).
 */

/** One result (Geocode's or ReverseGeocode's) as a suggestion; undefined if it lacks a name or position. */
export function placeToSuggestion(item: GeocodeResultItem | ReverseGeocodeResultItem | undefined): AddressSuggestion | undefined {
  if (!item) return undefined;
  const a = item.Address ?? {};
  const displayName = text(a.Label) ?? text(item.Title);
  // Positions are [longitude, latitude], as in GeoJSON.
  const longitude = coordinate(item.Position?.[0], 180);
  const latitude = coordinate(item.Position?.[1], 90);
  if (!displayName || latitude === undefined || longitude === undefined) return undefined;
  const address = addressOf({
    houseNumber: text(a.AddressNumber),
    road: text(a.Street),
    // The most local named area inside the town, as Nominatim's neighbourhood is.
    neighbourhood: text(a.SubDistrict) ?? text(a.District),
    city: text(a.Locality),
    state: text(a.Region?.Name),
    postcode: text(a.PostalCode),
  });
  return { displayName, latitude, longitude, address };
}

/** An answer's results as suggestions, the unusable ones left out. No results is an answer: nothing is there. */
export function placesSuggestions(items: readonly (GeocodeResultItem | ReverseGeocodeResultItem)[] | undefined, limit: number): AddressSuggestion[] {
  return (items ?? [])
    .map(placeToSuggestion)
    .filter((s): s is AddressSuggestion => s !== undefined)
    .slice(0, limit);
}

/** The SDK's error name (ThrottlingException, AccessDeniedException, TimeoutError, …) and status: codes, never a message. */
function failure(error: unknown): { reason: string; extra: Record<string, number> } {
  const name = error instanceof Error && error.name ? error.name : 'network';
  const status = (error as { $metadata?: { httpStatusCode?: unknown } } | null)?.$metadata?.httpStatusCode;
  return { reason: name, extra: typeof status === 'number' ? { status } : {} };
}

export interface AmazonLocationOptions {
  client: GeoPlacesClient;
  /** The whole call, the SDK's retry included. */
  timeoutMs?: number;
}

export function createAmazonLocationGeocoder({ client, timeoutMs = GEOCODER_TIMEOUT_MS }: AmazonLocationOptions): Geocoder {
  async function call(operation: GeocoderOperation, ask: (abortSignal: AbortSignal) => Promise<AddressSuggestion[]>): Promise<GeocodeResult> {
    const started = Date.now();
    try {
      return { suggestions: await ask(AbortSignal.timeout(timeoutMs)), available: true };
    } catch (error) {
      const { reason, extra } = failure(error);
      return unavailableBecause('amazon-location', operation, started, reason, extra);
    }
  }

  return {
    search: (q) =>
      call('search', async (abortSignal) => {
        const out = await client.send(
          new GeocodeCommand({ QueryText: q, MaxResults: SEARCH_LIMIT, Language: 'en', IntendedUse: 'Storage' }),
          { abortSignal },
        );
        return placesSuggestions(out.ResultItems, SEARCH_LIMIT);
      }),
    reverse: (lat, lng) =>
      call('reverse', async (abortSignal) => {
        const out = await client.send(
          new ReverseGeocodeCommand({ QueryPosition: [lng, lat], MaxResults: 1, Language: 'en', IntendedUse: 'Storage' }),
          { abortSignal },
        );
        return placesSuggestions(out.ResultItems, 1);
      }),
  };
}
