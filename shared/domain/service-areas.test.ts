import { describe, expect, it } from 'vitest';
import { serviceAreaOf } from './service-areas';

describe('serviceAreaOf', () => {
  it('keeps the town and state of a street address, without the street or the postcode', () => {
    // Act
    const area = serviceAreaOf('1200 Market Street, San Francisco, CA 94102');
    // Assess
    expect(area).toBe('San Francisco, CA');
  });

  it('drops the country and a postcode of its own', () => {
    expect(serviceAreaOf('12 Oak Ave, Berkeley, California, 94704, USA')).toBe('Berkeley, California');
  });

  it('has no area for an address that names only one place', () => {
    expect(serviceAreaOf('somewhere downtown')).toBeNull();
  });
});
