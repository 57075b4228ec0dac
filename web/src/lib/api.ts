import { QueryClient, type QueryFunction } from '@tanstack/react-query';
import { apiReadInit, takeEarlyFetch } from './early-fetch';
import { queryKeyUrl } from './query-keys';

/**
 * The one API client (DESIGN.md section 9, spec section 7). Every call is same-origin, sends the
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

/** A message fit to show a person: the server's `message` when it sent one, else the error's. */
export function errorMessage(error: unknown): string | undefined {
  if (error instanceof ApiError && isRecord(error.body) && typeof error.body.message === 'string' && error.body.message) {
    return error.body.message;
  }
  if (error instanceof Error && error.message) return error.message;
  return undefined;
}

async function throwIfNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  const text = await res.text().catch(() => '');
  throw apiErrorFrom(res.status, res.statusText, text);
}

async function readJson<T>(res: Response): Promise<T> {
  const text = await res.text();
  return (text ? JSON.parse(text) : null) as T;
}

export interface ApiRequestOptions {
  /** Sent as `Authorization: Bearer <token>` (the worker calls, spec section 6). */
  token?: string | null;
  signal?: AbortSignal;
  /** Sent as Idempotency-Key on creating calls, so pressing again after a failure never creates twice. */
  idempotencyKey?: string;
}

export async function apiRequest<T>(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  body?: unknown,
  options: ApiRequestOptions = {},
): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
  const res = await fetch(url, {
    method,
    credentials: 'include',
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: options.signal,
  });
  await throwIfNotOk(res);
  return readJson<T>(res);
}

export const apiGet = <T>(url: string, options?: ApiRequestOptions) => apiRequest<T>('GET', url, undefined, options);
export const apiPost = <T>(url: string, body: unknown, options?: ApiRequestOptions) => apiRequest<T>('POST', url, body, options);

export { queryKeyUrl };

export type UnauthorizedBehavior = 'returnNull' | 'throw';

/** The default query function: GET the key's URL; with on401 "returnNull" a 401 yields null. */
export function getQueryFn<T>({ on401 }: { on401: UnauthorizedBehavior }): QueryFunction<T | null> {
  return async ({ queryKey, signal }) => {
    const url = queryKeyUrl(queryKey);
    const res = await (takeEarlyFetch(url) ?? fetch(url, { ...apiReadInit, signal }));
    if (on401 === 'returnNull' && res.status === 401) return null;
    await throwIfNotOk(res);
    return readJson<T>(res);
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
