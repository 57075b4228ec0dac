import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, getQueryFn } from './api';
import { isOnline } from './offline-status';
import { isServerUnreachable, noteServerAnswered, subscribeServerReachability } from './server-reachability';

describe('whether the server answers', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    noteServerAnswered();
  });

  it('counts a call that got no answer as offline, though the browser says online', async () => {
    // Prepare
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));

    // Act
    await api('GET /api/requests').catch(() => undefined);

    // Assess
    expect(isServerUnreachable()).toBe(true);
    expect(isOnline()).toBe(false);
  });

  it('is online again with the next answer, a refusal included', async () => {
    // Prepare
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    await api('GET /api/requests').catch(() => undefined);
    vi.stubGlobal('fetch', vi.fn(async () => new Response('{"message":"Invoice not found"}', { status: 404 })));

    // Act
    await api('GET /api/invoices/{id}', { params: { id: 'x' } }).catch(() => undefined);

    // Assess
    expect(isServerUnreachable()).toBe(false);
    expect(isOnline()).toBe(true);
  });

  it('hears the same from the queries', async () => {
    // Prepare
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Load failed'))));
    const client = new QueryClient({ defaultOptions: { queries: { queryFn: getQueryFn({ on401: 'throw' }), retry: false } } });

    // Act
    await client.fetchQuery({ queryKey: ['/api/config'] }).catch(() => undefined);

    // Assess
    expect(isServerUnreachable()).toBe(true);
  });

  it('learns nothing from a call that was aborted', async () => {
    // Prepare
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new DOMException('The operation was aborted.', 'AbortError'))));

    // Act
    await api('GET /api/requests', { signal: new AbortController().signal }).catch(() => undefined);

    // Assess
    expect(isServerUnreachable()).toBe(false);
  });

  it('tells its listeners when it changes, not on every call', async () => {
    // Prepare
    const heard = vi.fn();
    const stop = subscribeServerReachability(heard);
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));

    // Act
    await api('GET /api/requests').catch(() => undefined);
    await api('GET /api/requests').catch(() => undefined);
    stop();

    // Assess
    expect(heard).toHaveBeenCalledTimes(1);
  });
});
