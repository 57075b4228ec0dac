import { describe, expect, it } from 'vitest';
import { inTownOf, townOf } from './town';

describe('townOf', () => {
  it('names the town after the street of an address the form wrote', () => {
    expect(townOf('742 Evergreen Terrace, Springfield, Oregon')).toBe('Springfield');
    expect(townOf('1 Ferry Building, San Francisco, CA 94111')).toBe('San Francisco');
  });

  it('skips a unit or a postcode between the street and the town', () => {
    expect(townOf('12 Harbour Road, Apt 4, Springfield')).toBe('Springfield');
    expect(townOf('12 Harbour Road, Unit B, Springfield')).toBe('Springfield');
    expect(townOf('12 Harbour Road, 94111, Springfield')).toBe('Springfield');
  });

  it('names no town for a street alone, so nothing of the street is shown as one', () => {
    expect(townOf('12 Oak St')).toBeNull();
    expect(townOf('37.7955, -122.3937')).toBeNull();
    expect(townOf(' , ')).toBeNull();
  });

  it('says where a job is to a pro as its town, or not at all', () => {
    expect(inTownOf('742 Evergreen Terrace, Springfield')).toBe(' in Springfield');
    expect(inTownOf('742 Evergreen Terrace')).toBe('');
  });
});
