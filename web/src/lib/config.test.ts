import { describe, expect, it } from 'vitest';
import { defaultDisplaySettings, displaySettingsOf, kmToUnit, moneyText, unitToKm, unitWord } from './config';

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

describe('moneyText', () => {
  it('writes cents in the configured currency', () => {
    expect(moneyText(15750)).toBe('$157.50');
    expect(moneyText(4500, defaultDisplaySettings, true)).toBe('$45');
    expect(moneyText(4550, defaultDisplaySettings, true)).toBe('$45.50');
    expect(moneyText(15750, { currency: 'EUR', locale: 'de-DE' }).replace(/\s/g, ' ')).toBe('157,50 €');
  });

  it('shows a dash for a missing amount rather than NaN', () => {
    expect(moneyText(Number.NaN)).toBe('—');
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
