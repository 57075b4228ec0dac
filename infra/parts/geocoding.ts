import { ArnFormat, Stack } from 'aws-cdk-lib';
import { Effect, PolicyStatement, type IRole } from 'aws-cdk-lib/aws-iam';

/**
 * The geocoder behind the two geocode routes (functions/catalog/geocoder.ts): which one, what the
 * two functions are told, and the one grant Amazon Location needs. No other function is told or
 * granted anything about geocoding.
 */

/** The same names functions/common/env.ts accepts for GEOCODER. */
export const GEOCODERS = ['amazon-location', 'nominatim', 'none'] as const;
export type GeocoderKind = (typeof GEOCODERS)[number];

/** The routes that call the geocoder. */
export const geocodeRoutes: readonly string[] = ['search-addresses', 'reverse-geocode'];

/** The Places API (v2) calls the adapter makes: Geocode for a typed address, ReverseGeocode for a position. */
export const PLACES_ACTIONS = ['geo-places:Geocode', 'geo-places:ReverseGeocode'] as const;

/**
 * The geocoder the operator chose (context "geocoder", "geocoderUrl"): Amazon Location unless told
 * otherwise; a geocoderUrl alone means a Nominatim-compatible service at it, and Nominatim is never
 * chosen without one. Checked here so that a contradiction stops the synth, not a cold start.
 */
export function geocoderSetting(given: unknown, geocoderUrl: string | undefined): GeocoderKind {
  if (geocoderUrl !== undefined && !/^https?:\/\/[^\s/]+/.test(geocoderUrl)) {
    throw new Error(`geocoderUrl must be an http(s) URL, got ${JSON.stringify(geocoderUrl)}`);
  }
  if (given === undefined || given === null || given === '') return geocoderUrl ? 'nominatim' : 'amazon-location';
  if (!(GEOCODERS as readonly unknown[]).includes(given)) {
    throw new Error(`geocoder must be one of ${GEOCODERS.join(', ')}, got ${JSON.stringify(given)}`);
  }
  if (given === 'nominatim' && !geocoderUrl) {
    throw new Error('geocoder "nominatim" needs geocoderUrl: the service you run or may use (infra/RUNBOOK.md, "Address search")');
  }
  if (given !== 'nominatim' && geocoderUrl) {
    throw new Error(`geocoderUrl is for geocoder "nominatim" only, not "${String(given)}"`);
  }
  return given as GeocoderKind;
}

export class Geocoding {
  private readonly granted = new Set<IRole>();

  constructor(private readonly settings: { geocoder: GeocoderKind; geocoderUrl?: string }) {}

  /** What a route's function is told: GEOCODER (and GEOCODER_URL for Nominatim) for the geocode routes, nothing for the rest. */
  environment(routeName: string): Record<string, string> {
    if (!geocodeRoutes.includes(routeName)) return {};
    const { geocoder, geocoderUrl } = this.settings;
    return { GEOCODER: geocoder, ...(geocoder === 'nominatim' && geocoderUrl ? { GEOCODER_URL: geocoderUrl } : {}) };
  }

  /**
   * The geocode routes get a role of their own when they call Amazon Location, so the grant reaches
   * no function that happens to need the same table rights.
   */
  roleNeeds(routeName: string): { own?: string } {
    return this.grantsPlaces(routeName) ? { own: 'geocoding' } : {};
  }

  /** Amazon Location's Places calls, on the Places provider of the stack's region and nothing else. */
  grantTo(role: IRole, routeName: string): void {
    if (!this.grantsPlaces(routeName) || this.granted.has(role)) return;
    this.granted.add(role);
    role.addToPrincipalPolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: [...PLACES_ACTIONS],
        // The Places API (v2) has no resource of the account's: its one resource type is the
        // region's provider, arn:<partition>:geo-places:<region>::provider/default.
        resources: [Stack.of(role).formatArn({ service: 'geo-places', account: '', resource: 'provider', resourceName: 'default', arnFormat: ArnFormat.SLASH_RESOURCE_NAME })],
      }),
    );
  }

  private grantsPlaces(routeName: string): boolean {
    return this.settings.geocoder === 'amazon-location' && geocodeRoutes.includes(routeName);
  }
}
