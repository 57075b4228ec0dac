import type { BodyOf, PathParamNames, QueryOf, ResponseOf, routes } from '../../../shared/routes';

/**
 * How the web names an API route: "GET /api/jobs/{id}", its method and path exactly as the route
 * manifest (shared/routes.ts) has them. Only the manifest's types come in, never its table: the
 * string a screen passes is all the client needs at run time, and the compiler holds it to the
 * manifest, so a route whose path or method changes breaks the typecheck, not the screen.
 */
type Route = (typeof routes)[number];
/** Each endpoint's route name: the manifest's types are by name. */
type NameByEndpoint = { [R in Route as `${R['method']} ${R['path']}`]: R['name'] };
type PathByEndpoint = { [R in Route as `${R['method']} ${R['path']}`]: R['path'] };
export type Endpoint = keyof NameByEndpoint;
/** The endpoints a query can read (the query keys name these). */
export type GetEndpoint = Extract<Endpoint, `GET ${string}`>;
type NameAt<E extends Endpoint> = NameByEndpoint[E];
type ParamNamesAt<E extends Endpoint> = PathParamNames<PathByEndpoint[E]>;

/** `{ id: … }` for "/api/jobs/{id}": a value for every `{name}` in the path, sent URL-encoded. */
export type PathParamsAt<E extends Endpoint> = { [K in ParamNamesAt<E>]: string | number };
export type BodyAt<E extends Endpoint> = BodyOf<NameAt<E>>;
type UndefinedKeys<T> = { [K in keyof T]-?: undefined extends T[K] ? K : never }[keyof T];
/** A parsed query as a client sends it: a value the handler may receive as undefined need not be sent. */
type Sendable<T> = T extends object ? Omit<T, UndefinedKeys<T>> & Partial<Pick<T, UndefinedKeys<T>>> : T;
export type QueryAt<E extends Endpoint> = Sendable<QueryOf<NameAt<E>>>;
export type ResponseAt<E extends Endpoint> = ResponseOf<NameAt<E>>;

type ParamsPart<E extends Endpoint> = [ParamNamesAt<E>] extends [never] ? { params?: undefined } : { params: PathParamsAt<E> };
type BodyPart<E extends Endpoint> = [BodyAt<E>] extends [undefined] ? { body?: undefined } : { body: BodyAt<E> };
type QueryPart<E extends Endpoint> = [QueryAt<E>] extends [undefined]
  ? { query?: undefined }
  : object extends QueryAt<E>
    ? { query?: QueryAt<E> }
    : { query: QueryAt<E> };

/** What a call to `endpoint` sends: its path parameters, its query and its body, each as the manifest types them. */
export type RequestParts<E extends Endpoint> = ParamsPart<E> & QueryPart<E> & BodyPart<E>;

/** The argument list for `E`'s parts: optional when every part is. */
export type PartsArg<E extends Endpoint, Extra = object> = object extends RequestParts<E> ? [parts?: RequestParts<E> & Extra] : [parts: RequestParts<E> & Extra];

/** A query value as the query string carries it; empty values are left out. */
export type QueryValue = string | number | boolean | null | undefined;

/** The method and the path of an endpoint, with its parameters filled in (each URL-encoded). */
export function endpointRequest(endpoint: Endpoint, params?: Record<string, string | number>): { method: Route['method']; path: string } {
  const space = endpoint.indexOf(' ');
  const method = endpoint.slice(0, space) as Route['method'];
  const path = endpoint.slice(space + 1).replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params?.[name];
    // The types ask for every parameter; a value missing at run time must not become a request for "/undefined".
    if (value === undefined || value === '') throw new Error(`${endpoint} needs a value for {${name}}`);
    return encodeURIComponent(String(value));
  });
  return { method, path };
}

/** The query's non-empty entries as strings, in the order given (the same object always gives the same URL). */
export function queryEntries(query: object | undefined): [string, string][] {
  if (!query) return [];
  return Object.entries(query as Record<string, QueryValue>)
    .filter((entry): entry is [string, string | number | boolean] => entry[1] !== undefined && entry[1] !== null && entry[1] !== '')
    .map(([name, value]) => [name, String(value)]);
}

/**
 * `path` with the query string of `query` (nothing when it has no non-empty value). Spaces go as
 * %20, never "+": API Gateway hands a handler a "+" as it came, not as a space.
 */
export function withQuery(path: string, query: object | undefined): string {
  const search = queryEntries(query)
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
    .join('&');
  return search ? `${path}?${search}` : path;
}

/**
 * What a query key holds besides its path: the query string, and what else the answer depends on
 * that the URL does not say (`scope`: whose token asked, which saved address the distances are from).
 */
export interface KeyTail {
  query?: Record<string, string>;
  scope?: string;
}

declare const answerOf: unique symbol;
/**
 * A query key: the GET's path in parts ("/api", then one part per segment, parameters URL-encoded),
 * then a KeyTail when it has one. Its parts joined by "/" are the path, so a key's prefix names
 * every query under that path and one invalidation matches them all. It carries its endpoint in
 * its type, for the answer's type.
 */
export type ApiKey<E extends GetEndpoint = GetEndpoint> = readonly (string | KeyTail)[] & { readonly [answerOf]?: E };

/** The URL a query key names: its path parts joined with "/", then its tail's query string. */
export function queryKeyUrl(queryKey: readonly unknown[]): string {
  const path = queryKey.filter((part) => typeof part !== 'object' || part === null).map(String).join('/');
  const tail = queryKey.find((part): part is KeyTail => typeof part === 'object' && part !== null);
  return withQuery(path, tail?.query);
}
