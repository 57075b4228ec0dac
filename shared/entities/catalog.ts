import type { AddressSuggestion } from '../schemas/job';
import { defineEntity } from './define';

/** The service catalogue, in one partition (CATALOG), seeded from shared/categories.ts. */
export interface ServiceItem {
  pk: string;
  sk: string;
  entity: 'service';
  id: string;
  slug: string;
  name: string;
  description: string;
  category: string;
  included: string[];
  position: number;
}

export const serviceEntity = defineEntity<ServiceItem>()({
  name: 'service',
  key: (slug = '') => ({ pk: 'CATALOG', sk: `SERVICE#${slug}` }),
});

/** Cached geocoder answers, by normalised query (`rev:<lat>,<lng>` for reverse lookups); they expire (TTL). */
export interface GeocodeItem {
  pk: string;
  sk: string;
  entity: 'geocode';
  suggestions: AddressSuggestion[];
  cachedAt: string;
  /** Epoch seconds: the table's TTL attribute. */
  expiresAt: number;
}

export const geocodeEntity = defineEntity<GeocodeItem>()({
  name: 'geocode',
  key: (query: string) => ({ pk: `GEOCODE#${query}`, sk: 'GEOCODE' }),
});

