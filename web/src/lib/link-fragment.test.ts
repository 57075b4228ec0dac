import { describe, expect, it } from 'vitest';
import { tokenFromHash, withoutFragment } from './link-fragment';

describe('reset link', () => {
  it('reads the secret from the fragment a mailed link carries', () => {
    expect(tokenFromHash('#token=sVh4b2Fy0cJ4cQmJ3v1xk0Ck3pRr9yqH6lT8WzNdE1A')).toBe('sVh4b2Fy0cJ4cQmJ3v1xk0Ck3pRr9yqH6lT8WzNdE1A');
    expect(tokenFromHash('token=abc_-')).toBe('abc_-');
  });

  it('reads no secret from an empty, blank or foreign fragment', () => {
    expect(tokenFromHash('')).toBeUndefined();
    expect(tokenFromHash('#')).toBeUndefined();
    expect(tokenFromHash('#token=%20')).toBeUndefined();
    expect(tokenFromHash('#other=1')).toBeUndefined();
  });

  it('leaves the address without its fragment', () => {
    expect(withoutFragment({ pathname: '/reset-password', search: '' })).toBe('/reset-password');
    expect(withoutFragment({ pathname: '/reset-password', search: '?a=1' })).toBe('/reset-password?a=1');
  });
});
