import { describe, expect, it } from 'vitest';
import { cellAndNeighbours, decodeGeohash, distanceKm, encodeGeohash, etaMinutes, isValidLatLng } from './geo';

const sanFrancisco = { lat: 37.7749, lng: -122.4194 };
const oakland = { lat: 37.8044, lng: -122.2712 };

describe('geohash cells', () => {
  it('encodes a known point as the reference geohash', () => {
    // The classic example: 57.64911, 10.40744 is u4pruydqqvj.
    expect(encodeGeohash({ lat: 57.64911, lng: 10.40744 }, 11)).toBe('u4pruydqqvj');
  });

  it('decodes to a cell that contains the point', () => {
    const cell = decodeGeohash(encodeGeohash(sanFrancisco, 6));

    expect(sanFrancisco.lat).toBeGreaterThanOrEqual(cell.latMin);
    expect(sanFrancisco.lat).toBeLessThanOrEqual(cell.latMax);
    expect(sanFrancisco.lng).toBeGreaterThanOrEqual(cell.lngMin);
    expect(sanFrancisco.lng).toBeLessThanOrEqual(cell.lngMax);
  });

  it('lists the cell and its eight neighbours, all distinct and of the same precision', () => {
    const cells = cellAndNeighbours(encodeGeohash(sanFrancisco, 5));

    expect(cells).toHaveLength(9);
    expect(new Set(cells).size).toBe(9);
    expect(cells.every((c) => c.length === 5)).toBe(true);
  });

  it('finds a point just across a cell edge among the neighbours', () => {
    const hash = encodeGeohash(sanFrancisco, 6);
    const { latMax, lngMin, lngMax } = decodeGeohash(hash);
    const across = { lat: latMax + 1e-6, lng: (lngMin + lngMax) / 2 };

    expect(cellAndNeighbours(hash)).toContain(encodeGeohash(across, 6));
  });

  it('wraps around the antimeridian', () => {
    const cells = cellAndNeighbours(encodeGeohash({ lat: 0, lng: 179.99 }, 4));

    expect(cells.some((c) => decodeGeohash(c).lngMin < 0)).toBe(true);
  });
});

describe('distance and ETA', () => {
  it('measures San Francisco to Oakland as about 13 km', () => {
    expect(distanceKm(sanFrancisco, oakland)).toBeCloseTo(13.4, 0);
  });

  it('is zero for the same point and symmetric', () => {
    expect(distanceKm(oakland, oakland)).toBe(0);
    expect(distanceKm(sanFrancisco, oakland)).toBeCloseTo(distanceKm(oakland, sanFrancisco), 9);
  });

  it('gives an ETA that grows with distance and never below the setting-off time', () => {
    expect(etaMinutes(oakland, oakland)).toBe(5);
    expect(etaMinutes(sanFrancisco, oakland)).toBe(Math.ceil(5 + ((distanceKm(sanFrancisco, oakland) * 1.3) / 30) * 60));
  });

  it('refuses coordinates out of range', () => {
    expect(isValidLatLng({ lat: 91, lng: 0 })).toBe(false);
    expect(isValidLatLng({ lat: 0, lng: Number.NaN })).toBe(false);
    expect(isValidLatLng(sanFrancisco)).toBe(true);
  });
});
