import { describe, expect, it } from 'vitest';
import { parseEnv } from './env';

describe('environment parsing', () => {
  it('applies the defaults a deployed function relies on', () => {
    expect(parseEnv({ TABLE_NAME: 't' })).toMatchObject({ STAGE: 'prod', PLATFORM_FEE_PERCENT: 10 });
  });

  it('fails fast with a message naming every bad variable', () => {
    expect(() => parseEnv({ PLATFORM_FEE_PERCENT: '150', DYNAMODB_ENDPOINT: 'nope' })).toThrow(
      /TABLE_NAME[\s\S]*DYNAMODB_ENDPOINT must be a URL[\s\S]*PLATFORM_FEE_PERCENT must be between 0 and 100/,
    );
  });
});

describe('the local runtime switch', () => {
  it("is off unless LOCAL_RUNTIME is 'true', whatever the stage is called, and refuses anything else by name", () => {
    expect(parseEnv({ TABLE_NAME: 't', STAGE: 'local' }).LOCAL_RUNTIME).toBe(false);
    expect(parseEnv({ TABLE_NAME: 't', LOCAL_RUNTIME: 'true' }).LOCAL_RUNTIME).toBe(true);
    expect(() => parseEnv({ TABLE_NAME: 't', LOCAL_RUNTIME: '1' })).toThrow(/LOCAL_RUNTIME must be true or unset/);
  });
});

describe('dispatch settings', () => {
  it('takes whole numbers within range and refuses the rest by name', () => {
    expect(parseEnv({ TABLE_NAME: 't', OFFER_SECONDS: '20', ARRIVAL_GRACE_SECONDS: '60' })).toMatchObject({ OFFER_SECONDS: 20, ARRIVAL_GRACE_SECONDS: 60, OFFERS_AT_ONCE: 3 });
    expect(() => parseEnv({ TABLE_NAME: 't', OFFER_SECONDS: '1.5', MAX_OFFERS: '0', SUPPORT_EMAIL: 'nobody' })).toThrow(
      /OFFER_SECONDS must be a whole number[\s\S]*MAX_OFFERS must be at least 1[\s\S]*SUPPORT_EMAIL must be an email address/,
    );
  });
});

describe('the geocoder setting', () => {
  it('chooses no geocoder unless one is named or a Nominatim URL is given', () => {
    expect(parseEnv({ TABLE_NAME: 't' })).toMatchObject({ GEOCODER: 'none', GEOCODER_URL: undefined });
    expect(parseEnv({ TABLE_NAME: 't', GEOCODER_URL: 'https://nominatim.example.com' })).toMatchObject({ GEOCODER: 'nominatim', GEOCODER_URL: 'https://nominatim.example.com' });
    expect(parseEnv({ TABLE_NAME: 't', GEOCODER: 'amazon-location' }).GEOCODER).toBe('amazon-location');
  });

  it('refuses an unknown geocoder, Nominatim without its URL, and a URL beside another geocoder, by name', () => {
    expect(() => parseEnv({ TABLE_NAME: 't', GEOCODER: 'google' })).toThrow(/GEOCODER must be one of amazon-location, nominatim, none/);
    expect(() => parseEnv({ TABLE_NAME: 't', GEOCODER: 'nominatim' })).toThrow(/GEOCODER_URL must be set when GEOCODER is nominatim/);
    expect(() => parseEnv({ TABLE_NAME: 't', GEOCODER: 'amazon-location', GEOCODER_URL: 'https://nominatim.example.com' })).toThrow(
      /GEOCODER_URL is for GEOCODER nominatim only, not amazon-location/,
    );
  });
});
