import { describe, expect, it } from 'vitest';
import { handler } from './get-service';
import { invoke, sampleEvent, withPath } from '../testing/events';

const sample = sampleEvent('get-service');

describe('GET /api/services/{slug}', () => {
  it('returns one service by slug', async () => {
    const res = await invoke(handler, sample);

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ slug: 'plumbing', name: 'Plumbing', category: 'plumbing' });
  });

  it.each(['landscaping', 'Plumbing', 'plumbing;drop', ''])('answers 404 for %j', async (slug) => {
    const res = await invoke(handler, withPath(sample, { slug }));

    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      error: 'NotFoundError',
      message: "The service you're looking for could not be found.",
    });
  });
});
