import { describe, expect, it } from 'vitest';
import { mix, pickStep, seeded, type Step } from './load';
import { percentile } from './timing';

const step = (name: string, weight: number): Step => ({ name, weight, read: true, request: () => ({ method: 'GET', url: `/${name}` }) });

describe('the load mix', () => {
  it('picks each step in proportion to its weight', () => {
    // Prepare
    const steps = [step('a', 1), step('b', 3)];
    const random = seeded(7);

    // Act
    const counts = { a: 0, b: 0 };
    for (let i = 0; i < 10_000; i++) counts[pickStep(steps, random()).name as 'a' | 'b']++;

    // Assess
    expect(counts.b / counts.a).toBeGreaterThan(2.7);
    expect(counts.b / counts.a).toBeLessThan(3.3);
  });

  it('maps the ends of the draw range onto the first and last steps', () => {
    // Prepare
    const steps = [step('first', 1), step('middle', 1), step('last', 1)];

    // Act
    const picked = [pickStep(steps, 0).name, pickStep(steps, 0.9999).name];

    // Assess
    expect(picked).toEqual(['first', 'last']);
  });

  it('repeats the same sequence for the same seed, and another for another seed', () => {
    // Act
    const one = Array.from({ length: 5 }, seeded(42));
    const again = Array.from({ length: 5 }, seeded(42));
    const other = Array.from({ length: 5 }, seeded(43));

    // Assess
    expect(again).toEqual(one);
    expect(other).not.toEqual(one);
    expect(one.every((x) => x >= 0 && x < 1)).toBe(true);
  });

  it('sends bookings and only reads besides, each step to an /api/ route', () => {
    // Prepare
    const actors = { owner: 'o=1', pros: [{ id: 'p', email: 'e', token: 't', worker: {} }], customers: [{ cookie: 'c=1', bookingId: 'b' }], slugs: ['plumbing'] };

    // Act
    const requests = mix.map((s) => ({ ...s.request(actors, 0), read: s.read }));

    // Assess
    expect(requests.filter((r) => !r.read).map((r) => r.method)).toEqual(['POST']);
    expect(requests.filter((r) => r.read).every((r) => r.method === 'GET')).toBe(true);
    expect(requests.every((r) => r.url.startsWith('/api/'))).toBe(true);
  });
});

describe('percentile', () => {
  it('takes the nearest rank', () => {
    // Act
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);

    // Assess
    expect([percentile(values, 50), percentile(values, 99), percentile(values, 100), percentile([5], 99)]).toEqual([50, 99, 100, 5]);
  });
});
