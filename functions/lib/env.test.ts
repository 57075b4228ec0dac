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
