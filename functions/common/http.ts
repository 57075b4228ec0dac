import middy, { type MiddlewareObj } from '@middy/core';
import type {
  APIGatewayProxyEventV2,
  APIGatewayProxyStructuredResultV2,
  Context,
} from 'aws-lambda';
import type * as z from 'zod/mini';
import { MAX_REQUEST_BODY_BYTES } from '../../shared/constants';
import type { WorkerItem } from '../../shared/entities';
import type {
  BodySchemaName,
  BodySchemas,
  ParamSchemaName,
  ParamSchemas,
  QuerySchemaName,
  QuerySchemas,
  ResponseSchemaName,
  ResponseSchemas,
  RouteDef,
} from '../../shared/routes';
import { paramSchemas } from '../../shared/schemas/params';
import { querySchemas } from '../../shared/schemas/query';
import { validate, type Schema } from '../../shared/validation';
import { identifiedCaller, ownerCaller, signedInCaller, workerCaller } from './auth/caller';
import type { Caller } from './auth/caller-types';
import { existingCustomer } from './auth/customer';
import { isApplicant, notActiveMessage, workerProfile } from './auth/worker-access';
import {
  BadRequestError,
  ConflictError,
  ForbiddenError,
  HttpError,
  NotFoundError,
  PayloadTooLargeError,
  ServiceUnavailableError,
  TooManyRequestsError,
  UnauthorizedError,
  UnsupportedMediaTypeError,
  ValidationError,
} from './errors';
import { alarmedLogs } from './counted-logs';
import { logger, withRequestContext } from './logger';
import { cameThroughDistribution, NOT_THROUGH_SITE_MESSAGE } from './origin-verify';
import { CROSS_SITE_MESSAGE, fromOwnSite } from './same-origin';
import { isTransient, unavailable } from './transient';

type Event = APIGatewayProxyEventV2;
type Result = APIGatewayProxyStructuredResultV2;

export type { Caller } from './auth/caller-types';

/** The schema a route's body is checked with: the one the manifest names for it. */
type SchemaOf<R extends RouteDef> = R['body'] extends BodySchemaName ? BodySchemas[R['body']] : never;
type ParsedBody<R extends RouteDef> = R['body'] extends BodySchemaName ? z.infer<SchemaOf<R>> : undefined;
/** Path parameters as checked by the manifest's params schema (none: an empty object). */
type ParsedParams<R extends RouteDef> = R['params'] extends ParamSchemaName ? z.output<ParamSchemas[R['params']]> : Record<string, never>;
/** The query string as checked by the manifest's query schema; a route without one reads none. */
type ParsedQuery<R extends RouteDef> = R['query'] extends QuerySchemaName ? z.output<QuerySchemas[R['query']]> : undefined;
/** What the handler answers with a plain return (a `reply()` carries its own body, checked by the tests). */
type ResponseBody<R extends RouteDef> = [R] extends [never] ? unknown : R['response'] extends ResponseSchemaName ? z.output<ResponseSchemas[R['response']]> : unknown;

/** A worker on a worker route: the profile is read too, its status decides 'active-worker'. */
export type WorkerWithProfile = Extract<Caller, { role: 'worker' }> & { worker: WorkerItem };

/** The caller each access level guarantees. */
export type CallerOf<R extends RouteDef> = R['access'] extends 'admin'
  ? Extract<Caller, { role: 'owner' }>
  : R['access'] extends 'applicant' | 'worker' | 'active-worker'
    ? WorkerWithProfile
    : R['access'] extends 'customer'
      ? Extract<Caller, { role: 'customer' }>
      : R['access'] extends 'signed-in'
        ? Extract<Caller, { role: 'owner' | 'worker' }>
        : R['access'] extends 'anyone'
          ? Caller
          : { role: 'anonymous' };

export interface HttpInput<R extends RouteDef> {
  body: ParsedBody<R>;
  params: ParsedParams<R>;
  /** Checked with the manifest's schema when first read (a 400 naming the value to change). */
  query: ParsedQuery<R>;
  event: Event;
  caller: CallerOf<R>;
  /** The body as sent, for routes that verify a signature over it (`rawBody` in the manifest). */
  rawBody?: string;
}

/** What a handler may return: a body (200), or a reply built with `reply()`. */
export interface Reply {
  [replyMark]: true;
  status: number;
  body: unknown;
  cookies?: string[];
  headers?: Record<string, string>;
  /** A body sent as it is (a file: its own content type in `headers`), not as JSON. */
  text?: true;
}
const replyMark = Symbol('reply');

export function reply(
  status: number,
  body: unknown,
  extra: { cookies?: string[]; headers?: Record<string, string> } = {},
): Reply {
  return { [replyMark]: true, status, body, ...extra };
}

/**
 * A file to save (a CSV export): the text as it is, its content type, and the name the browser saves
 * it under (Content-Disposition: attachment). The name is kept to safe characters, so it never
 * breaks out of its header.
 */
export function fileReply(text: string, file: { contentType: string; filename: string }): Reply {
  const filename = file.filename.replace(/[^A-Za-z0-9._-]/g, '_');
  return {
    [replyMark]: true,
    status: 200,
    body: text,
    text: true,
    headers: { 'content-type': file.contentType, 'content-disposition': `attachment; filename="${filename}"` },
  };
}

function isReply(value: unknown): value is Reply {
  return typeof value === 'object' && value !== null && replyMark in value;
}

const baseHeaders = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};

function json(status: number, body: unknown, extra: Pick<Reply, 'cookies' | 'headers'> = {}): Result {
  return {
    statusCode: status,
    headers: { ...baseHeaders, ...extra.headers },
    body: body === undefined ? '' : JSON.stringify(body),
    ...(extra.cookies?.length ? { cookies: extra.cookies } : {}),
  };
}

/** A reply whose body is text of its own type (fileReply): sent as it is, with the same base headers otherwise. */
function text(out: Reply): Result {
  return { statusCode: out.status, headers: { ...baseHeaders, ...out.headers }, body: String(out.body) };
}

type Internal = Record<string, unknown>;

/** Validated bodies and path parameters, handed from the parsing middleware to the handler without mutating the event. */
const parsedBodies = new WeakMap<Event, unknown>();
const parsedParams = new WeakMap<Event, unknown>();

function header(event: Event, name: string): string | undefined {
  return event.headers?.[name] ?? undefined;
}

function rawBody(event: Event): string {
  if (!event.body) return '';
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
}

/** Size, content type and JSON syntax: refused with a clear 4xx before any logic runs. */
export function parseBody(route: RouteDef, event: Event): unknown {
  const text = rawBody(event);
  if (Buffer.byteLength(text) > MAX_REQUEST_BODY_BYTES) {
    throw new PayloadTooLargeError(
      `The request body is larger than ${MAX_REQUEST_BODY_BYTES / 1024} KB. Send less data.`,
    );
  }
  // A signed body must reach its verifier byte for byte: no parsing, no re-serialising.
  if (route.rawBody) return text;
  if (!route.body) {
    // A form another page submits has a body type of its own (text/plain, urlencoded, multipart),
    // even when empty: only our client's JSON, or no type at all, is a call of ours.
    const type = header(event, 'content-type');
    if (type !== undefined && route.method !== 'GET' && !/^application\/json\s*(;|$)/i.test(type)) {
      throw new UnsupportedMediaTypeError('This request takes no body. Send it without one (or as JSON).');
    }
    if (text.trim() !== '' && text.trim() !== '{}') {
      throw new BadRequestError('This request takes no body. Send it without one.');
    }
    return undefined;
  }
  const type = header(event, 'content-type') ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type)) {
    throw new UnsupportedMediaTypeError(
      'Send the request body as JSON with the header Content-Type: application/json.',
    );
  }
  if (text.trim() === '') throw new BadRequestError('The request body is empty. Send a JSON object.');
  let outOfRange: string | undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text, (key, value: unknown) => {
      if (typeof value === 'number' && !storableNumber(value)) outOfRange ??= key;
      return value;
    });
  } catch {
    throw new BadRequestError('The request body is not valid JSON. Check quotes, commas and brackets.');
  }
  if (outOfRange !== undefined) {
    throw new BadRequestError(
      `The number${outOfRange ? ` in "${outOfRange.slice(0, 50)}"` : ''} is too large or too small. Send an ordinary amount.`,
    );
  }
  return parsed;
}

/**
 * Numbers the AWS SDK and DynamoDB can store: the SDK refuses to write one past 2^53 - 1 (it could
 * not be read back exactly), DynamoDB one below 1E-130; JSON can also spell Infinity (1e309). Each
 * would surface as a 500 (the fuzzing found a latitude of 1e-264, an accuracy of 1e100). No field
 * of ours means such a number: refused on arrival.
 */
function storableNumber(value: number): boolean {
  if (value === 0) return true;
  const magnitude = Math.abs(value);
  return Number.isFinite(value) && magnitude >= 1e-130 && magnitude <= Number.MAX_SAFE_INTEGER;
}

export function validateBody<T>(schema: Schema<T>, value: unknown): T {
  const result = validate(schema, value);
  if (result.success) return result.data;
  const { fields } = result;
  const message =
    Object.keys(fields).length === 1 ? Object.values(fields)[0]! : 'Some fields need attention.';
  throw new ValidationError(message, fields);
}

/**
 * The path parameters, checked with the manifest's schema. A value that cannot name anything is
 * answered as the route answers for one that names nothing (`missing`), so a malformed id and an
 * unknown one look alike; without `missing`, a 400 names the parameter.
 */
export function parseParams(route: RouteDef, event: Event): unknown {
  if (!route.params) return {};
  const schema: Schema = paramSchemas[route.params];
  const result = validate(schema, event.pathParameters ?? {});
  if (result.success) return result.data;
  if (route.missing?.status === 404) throw new NotFoundError(route.missing.message);
  if (route.missing?.status === 403) throw new ForbiddenError(route.missing.message);
  return validateBody(schema, event.pathParameters ?? {});
}

/** The query string, checked with the manifest's schema (a 400 naming the value to change); other routes read none. */
export function parseQuery(route: RouteDef, event: Event): unknown {
  const schema: Schema | undefined = route.query ? querySchemas[route.query] : undefined;
  return schema ? validateBody(schema, event.queryStringParameters ?? {}) : undefined;
}

function requestParsing(route: RouteDef, schema: Schema | undefined): MiddlewareObj<Event, Result, Error, Context, Internal> {
  return {
    before: (request) => {
      const body = parseBody(route, request.event);
      parsedBodies.set(request.event, schema ? validateBody(schema, body) : undefined);
      parsedParams.set(request.event, parseParams(route, request.event));
    },
  };
}

/**
 * The modules that identify a caller of each access level (authorize, below): a route runs only
 * its own level's, so the stack's table grants (infra/table-grants.ts) follow these rather than
 * everything this module imports, and a public route gets no right to sessions it never reads.
 */
export const callerModules = {
  public: [],
  anyone: ['./auth/caller'],
  'signed-in': ['./auth/caller'],
  customer: ['./auth/customer'],
  admin: ['./auth/caller'],
  applicant: ['./auth/caller', './auth/worker-access'],
  worker: ['./auth/caller', './auth/worker-access'],
  'active-worker': ['./auth/caller', './auth/worker-access'],
} as const satisfies Record<RouteDef['access'], readonly string[]>;

/**
 * Who may call the route, from the manifest; refused before the body is even read. A worker token
 * also loads the worker, whose status decides 'active-worker' routes (pending, suspended and terminated
 * workers may see their status, nothing more) and 'worker' routes (an applicant's account, under
 * review or not approved, reaches only the 'applicant' routes: their profile, application, logout).
 */
export async function authorize(route: RouteDef, event: Event): Promise<Caller | WorkerWithProfile> {
  switch (route.access) {
    case 'public':
      return { role: 'anonymous' };
    case 'anyone':
      return identifiedCaller(event);
    case 'signed-in': {
      const caller = await signedInCaller(event);
      if (!caller) throw new UnauthorizedError('Log in to continue.');
      return caller;
    }
    case 'customer': {
      const customerId = await existingCustomer(event);
      if (!customerId) throw new UnauthorizedError('Make a booking or a request first: this page shows only your own.');
      return { role: 'customer', id: customerId };
    }
    case 'admin': {
      const owner = await ownerCaller(event);
      if (!owner) throw new UnauthorizedError('Log in as the owner to continue.');
      return owner;
    }
    case 'applicant':
    case 'worker':
    case 'active-worker': {
      const session = await workerCaller(event);
      const worker = session ? await workerProfile(session.id) : undefined;
      if (!session || !worker) throw new UnauthorizedError('Log in as a worker to continue.');
      // An applicant (under review, or not approved) reaches only their status and logout.
      if (route.access === 'worker' && isApplicant(worker.status)) throw new ForbiddenError(notActiveMessage(worker.status));
      if (route.access === 'active-worker' && worker.status !== 'active') {
        throw new ForbiddenError(notActiveMessage(worker.status));
      }
      return { ...session, worker };
    }
  }
}

const callers = new WeakMap<Event, Caller | WorkerWithProfile>();

const unsafeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * A call that changes something, carrying cookies (the owner's session, the customer's identity),
 * must come from our own site: otherwise another page is spending the visitor's cookies.
 */
export function refuseCrossSite(event: Event): void {
  const method = event.requestContext?.http?.method ?? 'GET';
  if (!unsafeMethods.has(method.toUpperCase()) || !event.cookies?.length) return;
  if (!fromOwnSite(event.headers ?? {})) throw new ForbiddenError(CROSS_SITE_MESSAGE);
}

/**
 * Only what came through our CloudFront distribution is served (functions/common/origin-verify.ts):
 * checked first, so a direct call to execute-api reads and writes nothing, not even a session.
 */
function distributionOnly(route: RouteDef): MiddlewareObj<Event, Result, Error, Context, Internal> {
  return {
    before: async (request) => {
      if (await cameThroughDistribution(request.event.headers)) return;
      logger.warn('Refused: not through the distribution', { route: route.name });
      throw new ForbiddenError(NOT_THROUGH_SITE_MESSAGE);
    },
  };
}

function authorization(route: RouteDef): MiddlewareObj<Event, Result, Error, Context, Internal> {
  return {
    before: async (request) => {
      refuseCrossSite(request.event);
      callers.set(request.event, await authorize(route, request.event));
    },
  };
}

function errorResponses(route: RouteDef): MiddlewareObj<Event, Result, Error, Context, Internal> {
  return {
    onError: (request) => {
      const error = isTransient(request.error) ? unavailable(request.error) : request.error;
      if (error instanceof HttpError) {
        if (error instanceof ConflictError) logger.warn(alarmedLogs.conflictAnswered, { route: route.name, errorName: error.name });
        request.response = json(
          error.status,
          {
            error: error.name,
            message: error.message,
            ...(error instanceof ValidationError ? { fields: error.fields } : {}),
          },
          error instanceof TooManyRequestsError || error instanceof ServiceUnavailableError
            ? { headers: { 'retry-after': String(error.retryAfterSeconds) } }
            : {},
        );
        return;
      }
      // Unknown failures are logged with what identifies them, and reveal nothing to the caller.
      logger.error('Unhandled error', {
        route: route.name,
        requestId: request.event.requestContext?.requestId,
        errorName: error?.name,
        errorMessage: error?.message,
        stack: error?.stack,
      });
      request.response = json(500, {
        error: 'InternalError',
        message: 'Something went wrong on our side. Please try again in a moment.',
      });
    },
  };
}

type Fn<R extends RouteDef> = (input: HttpInput<R>, context: Context) => Promise<ResponseBody<R> | Reply>;
/** The stack, with what the tests check it against: the body schema it validates with, and its route. */
type Handler = ReturnType<typeof middy<Event, Result, Error, Context, Internal>> & { bodySchema?: Schema; route?: RouteDef };

/**
 * The one handler stack: body limits and JSON parsing, zod validation,
 * typed errors, a 500 that reveals nothing, and the manifest's `access` enforced on every call,
 * after the origin secret proved the call came through CloudFront.
 * A route with a body takes its schema too (`http(route, schema, fn)`): the handler imports only
 * its own, so no function bundles the others; the manifest test checks it is the one named there.
 * Path parameters and the query string are checked with the schemas the manifest names (small, so
 * the stack holds them all): the handler gets them typed. Answers are not checked here (that would
 * cost every call): the tests check each route's against its response schema.
 */
export function http<R extends RouteDef & { body?: undefined }>(route: R, fn: Fn<NoInfer<R>>): Handler;
export function http<R extends RouteDef & { body: BodySchemaName }>(route: R, schema: SchemaOf<R>, fn: Fn<NoInfer<R>>): Handler;
export function http<R extends RouteDef>(route: R, ...args: [Fn<R>] | [Schema, Fn<R>]): Handler {
  const [schema, fn] = args.length === 2 ? args : [undefined, args[0]];
  if (Boolean(route.body) !== Boolean(schema)) {
    throw new Error(`Route ${route.name}: the manifest ${route.body ? `names body schema ${route.body} but the handler passes none` : 'names no body schema but the handler passes one'}`);
  }
  const handler: Handler = middy<Event, Result, Error, Context, Internal>()
    .use(errorResponses(route))
    .use(distributionOnly(route))
    .use(authorization(route))
    .use(requestParsing(route, schema))
    .handler(async (event, context) => {
      let query: { value: ParsedQuery<R> } | undefined;
      const input: HttpInput<R> = {
        body: parsedBodies.get(event) as ParsedBody<R>,
        params: parsedParams.get(event) as ParsedParams<R>,
        // Checked when the handler first reads it: at once for one that destructures its input, after
        // its rationing for one that counts refused calls too (the worker list).
        get query() {
          query ??= { value: parseQuery(route, event) as ParsedQuery<R> };
          return query.value;
        },
        event,
        caller: callers.get(event) as CallerOf<R>,
        ...(route.rawBody ? { rawBody: rawBody(event) } : {}),
      };
      const out = await fn(input, context);
      if (isReply(out)) return out.text ? text(out) : json(out.status, out.body, out);
      return json(200, out);
    });
  handler.bodySchema = schema;
  handler.route = route;
  return withRequestContext(handler, route.name);
}
