import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiReadInit, fetchEarly, takeEarlyFetch } from './early-fetch';

describe('API reads started before React', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('hands the early answer to the first reader of the same URL, once, sent as every API read is', async () => {
    // Prepare
    const answer = new Response('{"id":"b1"}');
    const fetch = vi.fn(async () => answer);
    vi.stubGlobal('fetch', fetch);

    // Act
    fetchEarly('/api/bookings/b1');

    // Assess
    expect(fetch).toHaveBeenCalledWith('/api/bookings/b1', apiReadInit);
    expect(takeEarlyFetch('/api/bookings/b2')).toBeUndefined();
    expect(await takeEarlyFetch('/api/bookings/b1')).toBe(answer);
    expect(takeEarlyFetch('/api/bookings/b1')).toBeUndefined();
  });

  it('does not hand out an answer a reader asks for long after the page started', () => {
    // Prepare
    vi.useFakeTimers();
    vi.stubGlobal('fetch', vi.fn(async () => new Response('{}')));
    fetchEarly('/api/bookings/b1');

    // Act
    vi.advanceTimersByTime(10_000);

    // Assess
    expect(takeEarlyFetch('/api/bookings/b1')).toBeUndefined();
  });

  it('keeps a failed early read quiet until someone takes it, then that reader sees the failure', async () => {
    // Prepare
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));

    // Act
    fetchEarly('/api/bookings/b1');
    await new Promise((resolve) => setTimeout(resolve, 0));

    // Assess: no unhandled rejection so far, and the reader gets the error.
    await expect(takeEarlyFetch('/api/bookings/b1')).rejects.toThrow('Failed to fetch');
  });
});
