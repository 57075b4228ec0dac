import { describe, expect, it } from 'vitest';
import { mailto, paths, patterns } from './paths';

describe('paths', () => {
  it('builds links with their parameters encoded', () => {
    expect(paths.service('plumbing')).toBe('/services/plumbing');
    expect(paths.book()).toBe('/book');
    expect(paths.book('plumbing')).toBe('/book?category=plumbing');
    expect(paths.track()).toBe('/track');
    expect(paths.track('abc_DEF-123')).toBe('/track#id=abc_DEF-123');
    expect(paths.track('a b&c')).toBe('/track#id=a%20b%26c');
  });

  it('lists every route of the route table once', () => {
    const all = Object.values(patterns);
    expect(new Set(all).size).toBe(all.length);
    expect(all).toHaveLength(43);
  });

  it('makes a mailto link with an encoded subject', () => {
    expect(mailto('support@fixly.app', 'Support request')).toBe('mailto:support@fixly.app?subject=Support%20request');
  });
});
