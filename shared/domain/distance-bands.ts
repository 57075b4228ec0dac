import { decodeGeohash, distanceKm, encodeGeohash, KM_PER_MILE, type LatLng } from './geo';

/**
 * How far a pro is, as the public may know it: a coarse band in the site's unit, never a figure.
 * A precise distance from a point the caller picks is a position (step toward smaller answers and
 * the pro is found), so the listing names only these bands, and measures them between coarse cells.
 */
export type DistanceUnit = 'mi' | 'km';

/** The edges between bands, in the site's unit: under 5, 5–10, 10–25, 25–50, over 50. */
export const bandEdges = [5, 10, 25, 50] as const;

export const distanceBandIds = ['under-5', '5-10', '10-25', '25-50', 'over-50'] as const;
export type DistanceBandId = (typeof distanceBandIds)[number];

export interface DistanceBand {
  id: DistanceBandId;
  /** Lower bound, in `unit` (0 for the first band). */
  from: number;
  /** Upper bound, in `unit`; null for the last band ("over 50"). */
  to: number | null;
  unit: DistanceUnit;
}

const kmOf = (distance: number, unit: DistanceUnit) => (unit === 'mi' ? distance * KM_PER_MILE : distance);

/** Every band of a unit, nearest first. */
export function distanceBands(unit: DistanceUnit): DistanceBand[] {
  const edges = [0, ...bandEdges];
  return distanceBandIds.map((id, i) => ({ id, from: edges[i]!, to: bandEdges[i] ?? null, unit }));
}

/** The band a distance in kilometres falls in (a distance on an edge belongs to the farther band). */
export function bandOfKm(km: number, unit: DistanceUnit): DistanceBand {
  const bands = distanceBands(unit);
  return bands.find((band) => band.to !== null && km < kmOf(band.to, unit)) ?? bands[bands.length - 1]!;
}

/** The band's upper bound in kilometres (Infinity for the last one): what a "within" limit compares. */
export function bandUpperKm(band: DistanceBand): number {
  return band.to === null ? Number.POSITIVE_INFINITY : kmOf(band.to, band.unit);
}

/** Nearest band first, for ordering. */
export function bandRank(id: DistanceBandId): number {
  return distanceBandIds.indexOf(id);
}

/**
 * Bands are measured between the centres of 5-character geohash cells (about 5 km by 5 km at the
 * equator, narrower east-west toward the poles), not between the points themselves: however many
 * places someone measures from, and however they step them along a band's edge, the most they can
 * learn is the cell a pro is in. That costs the band up to a cell's half-diagonal at either end.
 */
export const BAND_CELL_PRECISION = 5;

export function cellCentre(point: LatLng): LatLng {
  const { latMin, latMax, lngMin, lngMax } = decodeGeohash(encodeGeohash(point, BAND_CELL_PRECISION));
  return { lat: (latMin + latMax) / 2, lng: (lngMin + lngMax) / 2 };
}

/** The public band between two places: cell centre to cell centre. */
export function bandBetween(a: LatLng, b: LatLng, unit: DistanceUnit): DistanceBand {
  return bandOfKm(distanceKm(cellCentre(a), cellCentre(b)), unit);
}
