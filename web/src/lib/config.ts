import { useQuery } from '@tanstack/react-query';
import type { PublicConfig } from '../../../shared/schemas/config';
import { queryKeys } from './query-keys';

/** How amounts and distances are written: the configured currency, locale and unit. */
export interface DisplaySettings {
  currency: string;
  locale: string;
  distanceUnit: 'mi' | 'km';
}

/** What screens show until the configuration arrives (and if it never does): US dollars and miles. */
export const defaultDisplaySettings: DisplaySettings = { currency: 'USD', locale: 'en-US', distanceUnit: 'mi' };

function usableLocale(locale: unknown): string | null {
  if (typeof locale !== 'string' || !locale.trim()) return null;
  try {
    return Intl.NumberFormat.supportedLocalesOf([locale.trim()]).length > 0 ? locale.trim() : null;
  } catch {
    return null;
  }
}

function usableCurrency(currency: unknown): string | null {
  if (typeof currency !== 'string' || !/^[A-Za-z]{3}$/.test(currency.trim())) return null;
  return currency.trim().toUpperCase();
}

/**
 * The display settings of a configuration, each part checked on its own: an unknown locale or a
 * malformed currency falls back to the default rather than making every amount throw.
 */
export function displaySettingsOf(config: Partial<Pick<PublicConfig, 'currency' | 'locale' | 'distanceUnit'>> | null | undefined): DisplaySettings {
  return {
    currency: usableCurrency(config?.currency) ?? defaultDisplaySettings.currency,
    locale: usableLocale(config?.locale) ?? defaultDisplaySettings.locale,
    distanceUnit: config?.distanceUnit === 'km' || config?.distanceUnit === 'mi' ? config.distanceUnit : defaultDisplaySettings.distanceUnit,
  };
}

/** The public configuration (cached for the visit: it changes only with a deployment). */
export function usePublicConfig() {
  return useQuery<PublicConfig>({ queryKey: queryKeys.config });
}

/** The display settings, with the defaults while the configuration loads. */
export function useDisplaySettings(): DisplaySettings {
  const config = usePublicConfig();
  return displaySettingsOf(config.data);
}

/** Kilometres in one mile (the international mile: 1.609344 km, so 1 km = 0.621371 mi). */
export const KM_PER_MILE = 1.609344;

/** A distance in kilometres (as the server measures) in the configured unit. */
export function kmToUnit(km: number, unit: DisplaySettings['distanceUnit']): number {
  return unit === 'mi' ? km / KM_PER_MILE : km;
}

/** A distance in the configured unit in kilometres (as the server takes it). */
export function unitToKm(distance: number, unit: DisplaySettings['distanceUnit']): number {
  return unit === 'mi' ? distance * KM_PER_MILE : distance;
}

/** The unit's word after a number: "5 miles", "1 mile", "10 km". */
export function unitWord(distance: number, unit: DisplaySettings['distanceUnit']): string {
  if (unit === 'km') return 'km';
  return distance === 1 ? 'mile' : 'miles';
}
