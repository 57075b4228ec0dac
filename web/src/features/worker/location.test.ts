import { describe, expect, it } from 'vitest';
import { GEOLOCATION_OPTIONS, locationBody } from './location';

describe('locationBody', () => {
  it('sends the fix with its accuracy in metres', () => {
    // Act
    const body = locationBody({ latitude: 40.7, longitude: -74, accuracy: 12.5 });
    // Assess
    expect(body).toEqual({ latitude: 40.7, longitude: -74, accuracy: 12.5 });
  });

  it('leaves out an accuracy the browser could not give', () => {
    expect(locationBody({ latitude: 1, longitude: 2, accuracy: Number.NaN })).toEqual({ latitude: 1, longitude: 2 });
    expect(locationBody({ latitude: 1, longitude: 2, accuracy: null })).toEqual({ latitude: 1, longitude: 2 });
  });

  it('refuses coordinates the server would refuse', () => {
    expect(locationBody({ latitude: 91, longitude: 0 })).toBeNull();
    expect(locationBody({ latitude: 0, longitude: -181 })).toBeNull();
  });
});

describe('GEOLOCATION_OPTIONS', () => {
  it('asks for a precise fix, waits 30 s and accepts one up to a minute old', () => {
    expect(GEOLOCATION_OPTIONS).toEqual({ enableHighAccuracy: true, timeout: 30_000, maximumAge: 60_000 });
  });
});
