import { describe, expect, it } from 'vitest';
import { bandBetween, bandOfKm, bandUpperKm, cellCentre, distanceBands } from './distance-bands';
import { encodeGeohash } from './geo';

describe('distance bands', () => {
  it('puts a distance in the band of the site unit it falls in, an edge in the farther band', () => {
    // Act
    const miles = [0, 8, 8.047, 16, 30, 79, 81, 500].map((km) => bandOfKm(km, 'mi').id);
    const km = [0, 4.9, 5, 12, 26, 49, 50].map((d) => bandOfKm(d, 'km').id);

    // Assess
    expect(miles).toEqual(['under-5', 'under-5', '5-10', '5-10', '10-25', '25-50', 'over-50', 'over-50']);
    expect(km).toEqual(['under-5', 'under-5', '5-10', '10-25', '25-50', '25-50', 'over-50']);
  });

  it('names every band by its bounds in the unit, the last one open', () => {
    expect(distanceBands('km')).toEqual([
      { id: 'under-5', from: 0, to: 5, unit: 'km' },
      { id: '5-10', from: 5, to: 10, unit: 'km' },
      { id: '10-25', from: 10, to: 25, unit: 'km' },
      { id: '25-50', from: 25, to: 50, unit: 'km' },
      { id: 'over-50', from: 50, to: null, unit: 'km' },
    ]);
    expect(bandUpperKm(distanceBands('mi')[0]!)).toBeCloseTo(8.047, 3);
    expect(bandUpperKm(distanceBands('mi')[4]!)).toBe(Number.POSITIVE_INFINITY);
  });

  it('tells apart no two places in one cell, from wherever it is measured', () => {
    // Prepare: two points of one ~5 km cell, and places to measure from all around them
    const a = { lat: 37.7793, lng: -122.4193 };
    const centre = cellCentre(a);
    const b = { lat: centre.lat + (a.lat - centre.lat) * -0.9, lng: centre.lng + (a.lng - centre.lng) * -0.9 };
    expect(encodeGeohash(b, 5)).toBe(encodeGeohash(a, 5));
    const origins = Array.from({ length: 400 }, (_, i) => ({ lat: a.lat + Math.sin(i) * (i / 400), lng: a.lng + Math.cos(i) * (i / 400) }));

    // Act
    const differing = origins.filter((o) => bandBetween(o, a, 'mi').id !== bandBetween(o, b, 'mi').id);

    // Assess
    expect(differing).toEqual([]);
  });
});
