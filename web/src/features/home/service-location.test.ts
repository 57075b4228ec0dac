import { describe, expect, it } from 'vitest';
import { parseServiceLocation } from './service-location';

describe("the home page's saved service location", () => {
  it('reads back an address with the position it was chosen with', () => {
    const raw = JSON.stringify({ text: ' 1 Dr Carlton B Goodlett Pl ', coordinates: { latitude: 37.7793, longitude: -122.4193, source: 'suggestion' } });

    expect(parseServiceLocation(raw)).toEqual({
      text: '1 Dr Carlton B Goodlett Pl',
      coordinates: { latitude: 37.7793, longitude: -122.4193, source: 'suggestion' },
    });
  });

  it('keeps a typed address without a position', () => {
    expect(parseServiceLocation(JSON.stringify({ text: '12 Elm Street', coordinates: null }))).toEqual({ text: '12 Elm Street', coordinates: null });
  });

  it('drops a position that is out of range or of an unknown source, keeping the address', () => {
    const far = JSON.stringify({ text: '12 Elm Street', coordinates: { latitude: 91, longitude: 0, source: 'gps' } });
    const unknown = JSON.stringify({ text: '12 Elm Street', coordinates: { latitude: 1, longitude: 2, source: 'ip' } });

    expect(parseServiceLocation(far)).toEqual({ text: '12 Elm Street', coordinates: null });
    expect(parseServiceLocation(unknown)).toEqual({ text: '12 Elm Street', coordinates: null });
  });

  it('ignores nothing stored, broken JSON, a blank or over-long address', () => {
    expect(parseServiceLocation(null)).toBeNull();
    expect(parseServiceLocation('{not json')).toBeNull();
    expect(parseServiceLocation(JSON.stringify({ text: '   ' }))).toBeNull();
    expect(parseServiceLocation(JSON.stringify({ text: 'x'.repeat(201) }))).toBeNull();
    expect(parseServiceLocation(JSON.stringify(['12 Elm Street']))).toBeNull();
  });
});
