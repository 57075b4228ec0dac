import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, NETWORK_ERROR_TEXT, NetworkError, api, apiErrorFrom, apiGetKey, asNetworkError, errorMessage, getQueryFn } from './api';
import { queryKeyUrl } from './endpoint';
import { isUnder, queryKeys } from './query-keys';

describe('apiErrorFrom', () => {
  it('uses "<status>: <body text>" and keeps the parsed body', () => {
    const body = { error: 'ValidationError', message: 'Invalid booking', fields: { name: 'Name is required', n: 3 } };
    const error = apiErrorFrom(400, 'Bad Request', JSON.stringify(body));
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe(`400: ${JSON.stringify(body)}`);
    expect(error.status).toBe(400);
    expect(error.body).toEqual(body);
    expect(error.fields).toEqual({ name: 'Name is required' });
    expect(errorMessage(error)).toBe('Invalid booking');
  });

  it('falls back to the status text when the body is empty, and keeps non-JSON text', () => {
    expect(apiErrorFrom(502, 'Bad Gateway', '').message).toBe('502: Bad Gateway');
    const plain = apiErrorFrom(500, 'Internal Server Error', 'boom');
    expect(plain.body).toBe('boom');
    expect(plain.fields).toEqual({});
  });
});

describe('errorMessage', () => {
  it('leaves a status line or a proxy page to the form\'s own fallback', () => {
    // Prepare
    const bare = apiErrorFrom(502, 'Bad Gateway', '');
    const html = apiErrorFrom(503, 'Service Unavailable', '<html><body>Service Unavailable</body></html>');
    const noMessage = apiErrorFrom(500, 'Internal Server Error', '{"error":"InternalError"}');

    // Act
    const shown = [bare, html, noMessage].map((error) => errorMessage(error) ?? 'Please try again');

    // Assess
    expect(shown).toEqual(['Please try again', 'Please try again', 'Please try again']);
  });

  it('never shows a browser\'s network wording, wrapped or not', () => {
    // Prepare
    const failures = [
      new TypeError('Failed to fetch'),
      new TypeError('NetworkError when attempting to fetch resource.'),
      new TypeError('Load failed'),
      new NetworkError(new TypeError('Failed to fetch')),
    ];

    // Act
    const shown = failures.map((error) => errorMessage(error) ?? 'Please try again later.');

    // Assess
    expect(shown).toEqual(Array(4).fill('Please try again later.'));
  });

  it('keeps an error written for people, and says nothing for an abort', () => {
    expect(errorMessage(new Error('Failed to create payment session'))).toBe('Failed to create payment session');
    expect(errorMessage(new DOMException('The operation was aborted.', 'AbortError'))).toBeUndefined();
    expect(errorMessage(new SyntaxError("Unexpected token '<', \"<!doctype \"... is not valid JSON"))).toBeUndefined();
  });
});

describe('asNetworkError', () => {
  it('turns fetch\'s TypeError into a NetworkError that reads "Please try again later."', () => {
    // Prepare
    const cause = new TypeError('Failed to fetch');

    // Act
    const error = asNetworkError(cause);

    // Assess
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as NetworkError).message).toBe(NETWORK_ERROR_TEXT);
    expect(NETWORK_ERROR_TEXT).toBe('Please try again later.');
    expect((error as NetworkError).cause).toBe(cause);
  });

  it('passes aborts and answers through untouched', () => {
    // Prepare
    const abort = new DOMException('The operation was aborted.', 'AbortError');
    const refused = apiErrorFrom(409, 'Conflict', '{"message":"Already paid"}');
    const controller = new AbortController();
    controller.abort(new TypeError('custom reason'));
    const reason: unknown = controller.signal.reason;

    // Act
    const results = [asNetworkError(abort), asNetworkError(refused), asNetworkError(reason, controller.signal)];

    // Assess
    expect(results).toEqual([abort, refused, reason]);
  });
});

describe('api', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('rejects with a NetworkError when the server cannot be reached', async () => {
    // Prepare
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));

    // Act
    const failure = api('POST /api/push/test').catch((error: unknown) => error);

    // Assess
    const error = await failure;
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toBe('Please try again later.');
  });

  it('rejects with a NetworkError when the connection drops while the answer is read', async () => {
    // Prepare
    const broken = new Response('{"id":1}');
    vi.spyOn(broken, 'text').mockRejectedValue(new TypeError('network error'));
    vi.stubGlobal('fetch', vi.fn(async () => broken));

    // Act
    const error = await api('GET /api/requests').catch((e: unknown) => e);

    // Assess
    expect(error).toBeInstanceOf(NetworkError);
  });

  it('keeps an abort an abort', async () => {
    // Prepare
    const abort = new DOMException('The operation was aborted.', 'AbortError');
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(abort)));

    // Act
    const error = await api('GET /api/requests', { signal: new AbortController().signal }).catch((e: unknown) => e);

    // Assess
    expect(error).toBe(abort);
  });

  it('still rejects with the server\'s ApiError when it answered', async () => {
    // Prepare
    vi.stubGlobal('fetch', vi.fn(async () => new Response('{"message":"Invoice not found"}', { status: 404 })));

    // Act
    const error = await api('GET /api/invoices/{id}', { params: { id: 'x' } }).catch((e: unknown) => e);

    // Assess
    expect(error).toBeInstanceOf(ApiError);
    expect(errorMessage(error)).toBe('Invoice not found');
  });
});

describe('a call to a route', () => {
  afterEach(() => vi.unstubAllGlobals());

  function answering(body: unknown, status = 200) {
    const fetch = vi.fn(async (_url: string, _init?: RequestInit) => new Response(body === undefined ? '' : JSON.stringify(body), { status }));
    vi.stubGlobal('fetch', fetch);
    return fetch;
  }

  it('fills in the path parameters URL-encoded and sends the route\'s method', async () => {
    // Prepare
    const fetch = answering({ id: 'a/b c' });

    // Act
    const answer = await api('GET /api/jobs/{id}', { params: { id: 'a/b c?#' } });

    // Assess
    expect(answer).toEqual({ id: 'a/b c' });
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/api/jobs/a%2Fb%20c%3F%23');
    expect(init?.method).toBe('GET');
    expect(init?.body).toBeUndefined();
    expect(init?.credentials).toBe('include');
  });

  it('sends the body as JSON with the token and the submission key', async () => {
    // Prepare
    const fetch = answering({ ok: true });

    // Act
    await api('POST /api/jobs/{id}/state', { params: { id: 'j1' }, body: { state: 'en_route', workerId: 'w1' }, token: 't0k', idempotencyKey: 'k-1' });

    // Assess
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/api/jobs/j1/state');
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe('{"state":"en_route","workerId":"w1"}');
    expect(init?.headers).toEqual({
      accept: 'application/json',
      'content-type': 'application/json',
      authorization: 'Bearer t0k',
      'idempotency-key': 'k-1',
    });
  });

  it('sends no body and no content type for a route without one, and reads an empty answer as null', async () => {
    // Prepare
    const fetch = answering(undefined);

    // Act
    const answer = await api('POST /api/admin/workers/{id}/approve', { params: { id: 'w1' } });

    // Assess
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/api/admin/workers/w1/approve');
    expect(init?.body).toBeUndefined();
    expect(init?.headers).toEqual({ accept: 'application/json' });
    expect(answer).toBeNull();
  });

  it('refuses a call missing a path parameter before anything is sent', async () => {
    // Prepare
    const fetch = answering({});

    // Act
    // @ts-expect-error: the types ask for the id; a value lost at run time must not become "/api/jobs/undefined".
    const error = await api('GET /api/jobs/{id}', { params: {} }).catch((e: unknown) => e);

    // Assess
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe('GET /api/jobs/{id} needs a value for {id}');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('maps a refusal to an ApiError with the server\'s fields', async () => {
    // Prepare
    answering({ error: 'ValidationError', message: 'Invalid booking', fields: { name: 'Name is required' } }, 400);

    // Act
    const error = await api('POST /api/push/test').catch((e: unknown) => e);

    // Assess
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).fields).toEqual({ name: 'Name is required' });
    expect(errorMessage(error)).toBe('Invalid booking');
  });

  it('GETs the URL a query key names, with the worker\'s token', async () => {
    // Prepare
    const fetch = answering([]);

    // Act
    await apiGetKey(queryKeys.jobOffers('w 1'), { token: 't0k' });

    // Assess
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/api/jobs/offers/w%201');
    expect(init?.method).toBe('GET');
    expect((init?.headers as Record<string, string>).authorization).toBe('Bearer t0k');
  });
});

describe('the default query function', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('fails a query with a NetworkError, not the browser\'s wording', async () => {
    // Prepare
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Load failed'))));
    const client = new QueryClient({ defaultOptions: { queries: { queryFn: getQueryFn({ on401: 'throw' }), retry: false } } });

    // Act
    const error = await client.fetchQuery({ queryKey: ['/api/config'] }).catch((e: unknown) => e);

    // Assess
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toBe('Please try again later.');
  });
});

describe('query keys', () => {
  it('name the URL their query fetches: the path\'s parts, then the query string', () => {
    expect(queryKeyUrl(queryKeys.config)).toBe('/api/config');
    expect(queryKeyUrl(queryKeys.trackedJob('a b/c'))).toBe('/api/track/a%20b%2Fc');
    expect(queryKeyUrl(queryKeys.expiringDocuments(30))).toBe('/api/documents/expiring/30');
    expect(queryKeyUrl(queryKeys.paymentConfirmation('j1', 'cs_test 1'))).toBe('/api/requests/j1/payment?session_id=cs_test%201');
    expect(queryKeyUrl(queryKeys.paymentConfirmation('j1', null))).toBe('/api/requests/j1/payment');
  });

  it('leave empty query values out, and keep what the URL does not say out of it', () => {
    expect(queryKeyUrl(queryKeys.workerList({ category: undefined, maxKm: 8.047 }, '2025-01-01T00:00:00.000Z'))).toBe('/api/worker-profiles?maxKm=8.047');
    expect(queryKeyUrl(queryKeys.workerInvoices('w1'))).toBe('/api/invoices');
    expect(queryKeys.workerInvoices('w1')).not.toEqual(queryKeys.invoices);
  });

  it('start with the key of the list they belong to, so one invalidation refreshes them all', async () => {
    // Prepare
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const fresh = (key: readonly unknown[]) => client.setQueryData(key, 'kept');
    const under = [queryKeys.invoice('i1'), queryKeys.workerInvoices('w1'), queryKeys.invoices];
    const apart = [queryKeys.customerRequests, queryKeys.config];
    [...under, ...apart].forEach(fresh);

    // Act
    await client.invalidateQueries({ queryKey: queryKeys.invoices, refetchType: 'none' });

    // Assess
    expect(under.map((key) => client.getQueryState(key)?.isInvalidated)).toEqual([true, true, true]);
    expect(apart.map((key) => client.getQueryState(key)?.isInvalidated)).toEqual([false, false]);
    expect(isUnder(queryKeys.trackedJob('t1'), queryKeys.trackedJobs)).toBe(true);
    expect(isUnder(queryKeys.workerCompliance('w1'), queryKeys.adminWorkers)).toBe(true);
    expect(isUnder(queryKeys.pendingDocuments, queryKeys.admin)).toBe(true);
    expect(isUnder(queryKeys.customerRequests, queryKeys.admin)).toBe(false);
  });

  it('join plain parts with slashes', () => {
    expect(queryKeyUrl(['/api/services', 'plumbing'])).toBe('/api/services/plumbing');
    expect(queryKeyUrl(['/api/config'])).toBe('/api/config');
  });
});
