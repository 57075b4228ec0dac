import { describe, expect, it } from 'vitest';
import { queryKeyUrl } from '../lib/endpoint';
import { queryKeys } from '../lib/query-keys';
import { addressApiGets } from './route-data';

describe('the API reads an address names', () => {
  it('names the tracked job of /track#id=, as the page fetches it', () => {
    expect(addressApiGets({ pathname: '/track', search: '', hash: '#id=Ab3_x' })).toEqual(['/api/track/Ab3_x']);
    expect(addressApiGets({ pathname: '/track', search: '', hash: '#id=a%2Fb%20c' })).toEqual([queryKeyUrl(queryKeys.trackedJob('a/b c'))]);
  });

  it('names the tracked job of a link mailed with /track?id=', () => {
    expect(addressApiGets({ pathname: '/track', search: '?id=Ab3_x', hash: '' })).toEqual(['/api/track/Ab3_x']);
  });

  it('takes the id as the page does: trimmed, and none when it is blank or missing', () => {
    expect(addressApiGets({ pathname: '/track', search: '', hash: '#id=%20Ab3%20' })).toEqual(['/api/track/Ab3']);
    expect(addressApiGets({ pathname: '/track', search: '?id=%20', hash: '' })).toEqual([]);
    expect(addressApiGets({ pathname: '/track', search: '', hash: '' })).toEqual([]);
  });

  it('names nothing for other screens', () => {
    expect(addressApiGets({ pathname: '/book', search: '?id=Ab3', hash: '#id=Ab3' })).toEqual([]);
    expect(addressApiGets({ pathname: '/', search: '', hash: '' })).toEqual([]);
  });
});
