import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, NETWORK_ERROR_TEXT, NetworkError, apiErrorFrom, apiGet, apiPost, asNetworkError, errorMessage, getQueryFn, queryKeyUrl } from './api';

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

describe('apiRequest', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('rejects with a NetworkError when the server cannot be reached', async () => {
    // Prepare
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));

    // Act
    const failure = apiPost('/api/requests', { name: 'Ada' }).catch((error: unknown) => error);

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
    const error = await apiGet('/api/requests').catch((e: unknown) => e);

    // Assess
    expect(error).toBeInstanceOf(NetworkError);
  });

  it('keeps an abort an abort', async () => {
    // Prepare
    const abort = new DOMException('The operation was aborted.', 'AbortError');
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(abort)));

    // Act
    const error = await apiGet('/api/requests', { signal: new AbortController().signal }).catch((e: unknown) => e);

    // Assess
    expect(error).toBe(abort);
  });

  it('still rejects with the server\'s ApiError when it answered', async () => {
    // Prepare
    vi.stubGlobal('fetch', vi.fn(async () => new Response('{"message":"Invoice not found"}', { status: 404 })));

    // Act
    const error = await apiGet('/api/invoices/x').catch((e: unknown) => e);

    // Assess
    expect(error).toBeInstanceOf(ApiError);
    expect(errorMessage(error)).toBe('Invoice not found');
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

describe('queryKeyUrl', () => {
  it('joins the key parts with slashes', () => {
    expect(queryKeyUrl(['/api/services', 'plumbing'])).toBe('/api/services/plumbing');
    expect(queryKeyUrl(['/api/config'])).toBe('/api/config');
  });
});
