/**
 * Geography for dispatch: geohash cells (the sparse index of available workers is keyed by cell, so
 * matching reads a few partitions instead of scanning), great-circle distance, and a travel ETA.
 */
const BASE32 = '0123456789bcdefghjkmnpqrstuvwxyz';

export interface LatLng {
  lat: number;
  lng: number;
}

export function encodeGeohash({ lat, lng }: LatLng, precision: number): string {
  let [latMin, latMax, lngMin, lngMax] = [-90, 90, -180, 180];
  let hash = '';
  let bits = 0;
  let value = 0;
  let evenBit = true;
  while (hash.length < precision) {
    if (evenBit) {
      const mid = (lngMin + lngMax) / 2;
      value = value * 2 + (lng >= mid ? 1 : 0);
      if (lng >= mid) lngMin = mid;
      else lngMax = mid;
    } else {
      const mid = (latMin + latMax) / 2;
      value = value * 2 + (lat >= mid ? 1 : 0);
      if (lat >= mid) latMin = mid;
      else latMax = mid;
    }
    evenBit = !evenBit;
    if (++bits === 5) {
      hash += BASE32[value];
      bits = 0;
      value = 0;
    }
  }
  return hash;
}

/** The cell's bounds. */
export function decodeGeohash(hash: string): { latMin: number; latMax: number; lngMin: number; lngMax: number } {
  let [latMin, latMax, lngMin, lngMax] = [-90, 90, -180, 180];
  let evenBit = true;
  for (const char of hash) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error(`Not a geohash: ${hash}`);
    for (let bit = 4; bit >= 0; bit--) {
      const on = ((index >> bit) & 1) === 1;
      if (evenBit) {
        const mid = (lngMin + lngMax) / 2;
        if (on) lngMin = mid;
        else lngMax = mid;
      } else {
        const mid = (latMin + latMax) / 2;
        if (on) latMin = mid;
        else latMax = mid;
      }
      evenBit = !evenBit;
    }
  }
  return { latMin, latMax, lngMin, lngMax };
}

/** The cell and its eight neighbours (fewer at the poles), so a point near an edge is not missed. */
export function cellAndNeighbours(hash: string): string[] {
  const { latMin, latMax, lngMin, lngMax } = decodeGeohash(hash);
  const [height, width] = [latMax - latMin, lngMax - lngMin];
  const [lat, lng] = [(latMin + latMax) / 2, (lngMin + lngMax) / 2];
  const cells = new Set<string>();
  for (const dLat of [-1, 0, 1]) {
    for (const dLng of [-1, 0, 1]) {
      const nLat = lat + dLat * height;
      if (nLat > 90 || nLat < -90) continue;
      const nLng = ((lng + dLng * width + 540) % 360) - 180;
      cells.add(encodeGeohash({ lat: nLat, lng: nLng }, hash.length));
    }
  }
  return [...cells];
}

const EARTH_RADIUS_KM = 6371;
export const KM_PER_MILE = 1.609344;

/** Great-circle distance (haversine), in kilometres. */
export function distanceKm(a: LatLng, b: LatLng): number {
  const rad = (deg: number) => (deg * Math.PI) / 180;
  const dLat = rad(b.lat - a.lat);
  const dLng = rad(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * Minutes to arrive: road distance taken as 1.3× the straight line, at 30 km/h of city driving,
 * plus 5 minutes to set off. Rounded up: an ETA that is early disappoints less than a late one.
 */
export function etaMinutes(from: LatLng, to: LatLng): number {
  const roadKm = distanceKm(from, to) * 1.3;
  return Math.ceil(5 + (roadKm / 30) * 60);
}

export function isValidLatLng({ lat, lng }: LatLng): boolean {
  return Number.isFinite(lat) && Number.isFinite(lng) && Math.abs(lat) <= 90 && Math.abs(lng) <= 180;
}

/** No fix is vaguer than half the Earth's circumference: a larger accuracy is refused. */
export const MAX_FIX_ACCURACY_M = 20_000_000;
