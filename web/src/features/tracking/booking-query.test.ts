import { describe, expect, it } from 'vitest';
import { fragmentAddress, trackedBookingId } from './booking-query';

describe('the id a /track address names', () => {
  it('reads the fragment first, then the query of an older link', () => {
    expect(trackedBookingId({ search: '', hash: '#id=Ab3_x' })).toBe('Ab3_x');
    expect(trackedBookingId({ search: '?id=Old', hash: '#id=New' })).toBe('New');
    expect(trackedBookingId({ search: '?id=%20Old%20', hash: '' })).toBe('Old');
    expect(trackedBookingId({ search: '', hash: '' })).toBe('');
  });
});

describe('moving an old /track?id= link', () => {
  it('puts the id in the fragment and takes it out of the query, keeping the rest', () => {
    expect(fragmentAddress({ pathname: '/track', search: '?id=a%2Fb', hash: '' })).toBe('/track#id=a%2Fb');
    expect(fragmentAddress({ pathname: '/track', search: '?id=Ab3&from=mail', hash: '' })).toBe('/track?from=mail#id=Ab3');
  });

  it('moves nothing when the query holds no id', () => {
    expect(fragmentAddress({ pathname: '/track', search: '', hash: '#id=Ab3' })).toBeNull();
  });

  it('drops a blank query id without inventing a fragment', () => {
    expect(fragmentAddress({ pathname: '/track', search: '?id=', hash: '' })).toBe('/track');
  });
});
