import { describe, expect, it } from 'vitest';
import { distanceBands } from '../../../../shared/domain/distance-bands';
import type { WorkerListingView } from '../../../../shared/schemas/job';
import { effectiveSort, filterWorkers, matchesSearch, maxKmOf, maxRateCents, sortWorkers, workerListQuery } from './worker-filters';
import { queryKeyUrl } from '../../lib/endpoint';
import { queryKeys } from '../../lib/query-keys';

function worker(overrides: Partial<WorkerListingView>): WorkerListingView {
  return {
    id: 'w',
    workerId: 'w',
    fullName: 'Worker',
    photoUrl: null,
    bio: null,
    yearsExperience: 3,
    specialties: ['Plumbing'],
    serviceAreas: [],
    hourlyRate: 5000,
    isVerified: 'true',
    isAvailable: 'true',
    workerType: 'independent',
    rating: null,
    reviewCount: 0,
    distanceBand: null,
    ...overrides,
  };
}

const [underFive, fiveToTen, tenToTwentyFive] = distanceBands('mi');
const ana = worker({ id: 'a', fullName: 'Ana Reyes', specialties: ['Electrical'], hourlyRate: 6500, rating: 4.2, reviewCount: 3, distanceBand: fiveToTen! });
const ben = worker({ id: 'b', fullName: 'Ben Okafor', specialties: ['Plumbing', 'Handyman'], hourlyRate: 4000, rating: 4.9, reviewCount: 20, distanceBand: underFive! });
const cam = worker({ id: 'c', fullName: 'Cam Liu', specialties: ['Painting'], hourlyRate: 4000, rating: null, reviewCount: 0, distanceBand: null });
const dee = worker({ id: 'd', fullName: 'Dee Park', specialties: ['Cleaning'], hourlyRate: 3000, rating: 4.9, reviewCount: 2, distanceBand: tenToTwentyFive! });

const names = (list: WorkerListingView[]) => list.map((w) => w.fullName);

describe('maxRateCents', () => {
  it('reads dollars as cents', () => {
    expect(maxRateCents('45')).toBe(4500);
    expect(maxRateCents(' 45.5 ')).toBe(4550);
    expect(maxRateCents('0')).toBe(0);
  });

  it('means no ceiling for a blank, negative or unreadable value', () => {
    expect(maxRateCents('')).toBeNull();
    expect(maxRateCents('  ')).toBeNull();
    expect(maxRateCents('-5')).toBeNull();
    expect(maxRateCents('cheap')).toBeNull();
  });
});

describe('matchesSearch', () => {
  it('matches the name or a specialty, ignoring case and spaces around', () => {
    expect(matchesSearch(ben, '  okaf ')).toBe(true);
    expect(matchesSearch(ben, 'HANDY')).toBe(true);
    expect(matchesSearch(ben, 'paint')).toBe(false);
    expect(matchesSearch(ben, '')).toBe(true);
  });
});

describe('filterWorkers', () => {
  it('keeps workers matching the text at or under the ceiling', () => {
    // Prepare
    const list = [ana, ben, cam, dee];
    // Act
    const cheap = filterWorkers(list, { search: '', maxRate: '40' });
    const cheapPlumbers = filterWorkers(list, { search: 'plumb', maxRate: '40' });
    // Assess
    expect(names(cheap)).toEqual(['Ben Okafor', 'Cam Liu', 'Dee Park']);
    expect(names(cheapPlumbers)).toEqual(['Ben Okafor']);
  });

  it('keeps everyone without filters', () => {
    expect(filterWorkers([ana, ben], { search: '', maxRate: '' })).toHaveLength(2);
  });
});

describe('sortWorkers', () => {
  const list = [cam, dee, ana, ben];

  it('puts the nearest band first, names ordering one band, and unmeasured workers last', () => {
    // Prepare
    const eve = worker({ id: 'e', fullName: 'Eve Adams', distanceBand: underFive! });

    // Act
    const sorted = sortWorkers([...list, eve], 'nearest');

    // Assess
    expect(names(sorted)).toEqual(['Ben Okafor', 'Eve Adams', 'Ana Reyes', 'Dee Park', 'Cam Liu']);
  });

  it('puts the best rated first, more reviews breaking ties, and new workers last', () => {
    expect(names(sortWorkers(list, 'rating'))).toEqual(['Ben Okafor', 'Dee Park', 'Ana Reyes', 'Cam Liu']);
  });

  it('puts the cheapest first with equal rates in name order', () => {
    expect(names(sortWorkers(list, 'price'))).toEqual(['Dee Park', 'Ben Okafor', 'Cam Liu', 'Ana Reyes']);
  });

  it('leaves the given list untouched', () => {
    // Act
    sortWorkers(list, 'price');
    // Assess
    expect(names(list)).toEqual(['Cam Liu', 'Dee Park', 'Ana Reyes', 'Ben Okafor']);
  });
});

describe('effectiveSort', () => {
  it('defaults to nearest once a service address is saved and to rating before', () => {
    expect(effectiveSort(null, true)).toBe('nearest');
    expect(effectiveSort(null, false)).toBe('rating');
  });

  it('keeps the customer choice, except nearest without a saved address', () => {
    expect(effectiveSort('price', true)).toBe('price');
    expect(effectiveSort('rating', true)).toBe('rating');
    expect(effectiveSort('nearest', false)).toBe('rating');
  });
});

describe('workerListQuery', () => {
  it('sends the category and the distance limit, never a position', () => {
    const url = (category: string, maxKm?: number | null) => queryKeyUrl(queryKeys.workerList(workerListQuery(category, maxKm), '2025-01-01T00:00:00.000Z'));
    expect(url('')).toBe('/api/worker-profiles');
    expect(url('plumbing')).toBe('/api/worker-profiles?category=plumbing');
    expect(url('plumbing', 16.093)).toBe('/api/worker-profiles?category=plumbing&maxKm=16.093');
    expect(url('', 0)).toBe('/api/worker-profiles');
  });
});

describe('maxKmOf', () => {
  it('converts the chosen miles to kilometres for the server', () => {
    // Act
    const km = [5, 10, 25, 50].map((miles) => maxKmOf(String(miles), 'mi', true));

    // Assess
    expect(km).toEqual([8.047, 16.093, 40.234, 80.467]);
  });

  it('takes kilometres as they are where distances are in km', () => {
    expect(maxKmOf('25', 'km', true)).toBe(25);
  });

  it('sets no limit for any distance, an unknown choice, or no saved address to measure from', () => {
    expect(maxKmOf('', 'mi', true)).toBeNull();
    expect(maxKmOf('7', 'mi', true)).toBeNull();
    expect(maxKmOf('abc', 'mi', true)).toBeNull();
    expect(maxKmOf('10', 'mi', false)).toBeNull();
  });
});
