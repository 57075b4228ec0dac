import { describe, expect, it } from 'vitest';
import { categorySlugs } from '../../shared/categories';
import type { Service } from '../../shared/schemas/service';
import { handler } from './list-services';
import { invoke, sampleEvent } from '../testing/events';

describe('GET /api/services', () => {
  it('lists the six seeded categories in catalogue order, each with six included items', async () => {
    const res = await invoke(handler, sampleEvent('list-services'));

    expect(res.status).toBe(200);
    const services = res.body as Service[];
    expect(Object.keys(services[0]!).sort()).toEqual(['category', 'description', 'id', 'included', 'name', 'slug']);
    expect(services.map((s) => s.slug)).toEqual([...categorySlugs]);
    for (const service of services) {
      expect(service.included).toHaveLength(6);
      expect(service.description.length).toBeGreaterThan(40);
    }
  });
});
