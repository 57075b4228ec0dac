import { describe, expect, it } from 'vitest';
import { defaultDisplaySettings, displaySettingsOf, kmToUnit, unitToKm, unitWord } from './config';

describe('displaySettingsOf', () => {
  it('uses US dollars, en-US and miles until the configuration is known', () => {
    // Act
    const settings = displaySettingsOf(undefined);

    // Assess
    expect(settings).toEqual({ currency: 'USD', locale: 'en-US', distanceUnit: 'mi' });
    expect(settings).toEqual(defaultDisplaySettings);
  });

  it('takes the configured currency, locale and unit', () => {
    expect(displaySettingsOf({ currency: 'eur', locale: 'de-DE', distanceUnit: 'km' })).toEqual({ currency: 'EUR', locale: 'de-DE', distanceUnit: 'km' });
  });

  it('falls back part by part when a value is unusable', () => {
    // Prepare
    const broken = { currency: 'dollars', locale: 'not a locale!', distanceUnit: 'leagues' as 'mi' };

    // Act
    const settings = displaySettingsOf(broken);

    // Assess
    expect(settings).toEqual(defaultDisplaySettings);
  });
});

describe('distance units', () => {
  it('converts kilometres to miles at 0.621371 miles per km, and back', () => {
    expect(kmToUnit(1, 'mi')).toBeCloseTo(0.621371, 6);
    expect(kmToUnit(3.7, 'km')).toBe(3.7);
    expect(unitToKm(10, 'mi')).toBeCloseTo(16.09344, 5);
    expect(unitToKm(10, 'km')).toBe(10);
  });

  it('names the unit after a number', () => {
    expect(unitWord(5, 'mi')).toBe('miles');
    expect(unitWord(1, 'mi')).toBe('mile');
    expect(unitWord(5, 'km')).toBe('km');
  });
});
