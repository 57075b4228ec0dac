import { QueryClient, type QueryFunction } from '@tanstack/react-query';
import { apiReadInit, takeEarlyFetch } from './early-fetch';
import { endpointRequest, queryKeyUrl, withQuery, type ApiKey, type Endpoint, type GetEndpoint, type PartsArg, type ResponseAt } from './endpoint';
import { noteServerAnswered, noteServerUnreachable } from './server-reachability';

/**
 * The one API client: every screen calls the server through it. Every call is same-origin, sends the
 * cookies, and turns a non-2xx answer into an ApiError whose message is "<status>: <body text or
 * status text>". The parsed JSON body stays on the error so forms can show the server's field
 * messages.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    message: string,
    /** The response body parsed as JSON, or the raw text when it is not JSON, or null when empty. */
    readonly body: unknown,
  ) {
    super(message);
  }

  /** The `fields` map of a 400 ValidationError body: field name -> message. */
  get fields(): Record<string, string> {
    const fields = isRecord(this.body) ? this.body.fields : undefined;
    if (!isRecord(fields)) return {};
    return Object.fromEntries(Object.entries(fields).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Builds the error for a non-2xx answer from its status, status text and body text. */
export function apiErrorFrom(status: number, statusText: string, text: string): ApiError {
  let body: unknown = null;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  return new ApiError(status, `${status}: ${text || statusText}`, body);
}

/** What a person reads when the request never reached the server. */
export const NETWORK_ERROR_TEXT = 'Please try again later.';

/**
 * The request never got an answer: offline, the server down, the connection dropped mid-body.
 * The browser's own words ("Failed to fetch", "NetworkError when attempting to fetch resource.",
 * "Load failed") differ per browser and tell a person nothing, so they stay on `cause`. It is still
 * a TypeError, as fetch's own failure is, so checks written for fetch keep working.
 */
export class NetworkError extends TypeError {
  override readonly name = 'NetworkError';
  constructor(cause?: unknown) {
    super(NETWORK_ERROR_TEXT, { cause });
  }
}

/** An abort (a query cancelled, a component gone) is no failure to report, whatever the browser calls it. */
export function isAbort(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AbortError';
}

/**
 * fetch's failure as a NetworkError. fetch rejects with a TypeError when no answer came (that is
 * its whole contract); aborts and anything else pass through untouched.
 */
export function asNetworkError(error: unknown, signal?: AbortSignal | null): unknown {
  // An aborted fetch rejects with the signal's reason, which need not be named AbortError.
  if (error instanceof NetworkError || isAbort(error) || signal?.aborted) return error;
  return error instanceof TypeError ? new NetworkError(error) : error;
}

/**
 * A message fit to show a person: the server's `message` when it sent one, else the error's.
 * Nothing for a network failure or an answer without a message, so each form shows its own
 * fallback ("Please try again", "Please try again later.") rather than the browser's "Failed to
 * fetch" or "502: Bad Gateway".
 */
export function errorMessage(error: unknown): string | undefined {
  if (error instanceof ApiError) {
    // Without the server's own words there is only a status line or a proxy's HTML page.
    return isRecord(error.body) && typeof error.body.message === 'string' && error.body.message ? error.body.message : undefined;
  }
  // fetch's own failure, wrapped or not, and the engine's words about a broken answer ("Unexpected
  // token '<'") are for developers, not for the person filling in the form.
  if (error instanceof TypeError || error instanceof SyntaxError || isAbort(error)) return undefined;
  if (error instanceof Error && error.message) return error.message;
  return undefined;
}

/** A call that got no answer tells the screens that keep working offline (lib/server-reachability.ts). */
function reported(error: unknown): unknown {
  if (error instanceof NetworkError) noteServerUnreachable();
  return error;
}

async function throwIfNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  const text = await res.text().catch(() => '');
  throw apiErrorFrom(res.status, res.statusText, text);
}

async function readJson(res: Response): Promise<unknown> {
  const text = await res.text();
  return text ? JSON.parse(text) : null;
}

export interface CallOptions {
  /** Sent as `Authorization: Bearer <token>` (the worker's calls). */
  token?: string | null;
  signal?: AbortSignal;
  /** Sent as Idempotency-Key on creating calls, so pressing again after a failure never creates twice. */
  idempotencyKey?: string;
}

async function send(method: string, url: string, body: unknown, options: CallOptions): Promise<unknown> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
  try {
    const res = await fetch(url, {
      method,
      credentials: 'include',
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: options.signal,
    });
    noteServerAnswered();
    await throwIfNotOk(res);
    return await readJson(res);
  } catch (error) {
    throw reported(asNetworkError(error, options.signal));
  }
}

/**
 * Calls one route of the manifest, named by its method and path:
 * `api('POST /api/jobs/{id}/state', { params: { id }, body })`. The path's parameters are filled in
 * URL-encoded, the query's non-empty values go in the query string, and the body, the parameters
 * and the query are typed by the manifest, so a route that changes breaks the typecheck here.
 */
export async function api<E extends Endpoint>(endpoint: E, ...[parts]: PartsArg<E, CallOptions>): Promise<ResponseAt<E>> {
  const given = (parts ?? {}) as CallOptions & { params?: Record<string, string | number>; query?: object; body?: unknown };
  const { method, path } = endpointRequest(endpoint, given.params);
  return (await send(method, withQuery(path, given.query), given.body, given)) as ResponseAt<E>;
}

/**
 * GETs what a query key names (lib/query-keys.ts), for a query that needs more than the default
 * query function sends: a worker's token, or its own handling of the answer.
 */
export async function apiGetKey<E extends GetEndpoint>(queryKey: ApiKey<E>, options: CallOptions = {}): Promise<ResponseAt<E>> {
  return (await send('GET', queryKeyUrl(queryKey), undefined, options)) as ResponseAt<E>;
}

export type UnauthorizedBehavior = 'returnNull' | 'throw';

/** The default query function: GET the key's URL; with on401 "returnNull" a 401 yields null. */
export function getQueryFn<T>({ on401 }: { on401: UnauthorizedBehavior }): QueryFunction<T | null> {
  return async ({ queryKey, signal }) => {
    const url = queryKeyUrl(queryKey);
    try {
      const res = await (takeEarlyFetch(url) ?? fetch(url, { ...apiReadInit, signal }));
      noteServerAnswered();
      if (on401 === 'returnNull' && res.status === 401) return null;
      await throwIfNotOk(res);
      return (await readJson(res)) as T;
    } catch (error) {
      throw reported(asNetworkError(error, signal));
    }
  };
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'throw' }),
        refetchOnWindowFocus: false,
        refetchInterval: false,
        staleTime: Infinity,
        retry: false,
      },
      mutations: { retry: false },
    },
  });
}
