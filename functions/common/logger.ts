import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Structured one-line JSON logs (CloudWatch parses them). Callers pass ids and codes, never
 * request bodies, cookies or personal data.
 *
 * Every line written while a handler runs carries the invocation's ids: `requestId` (Lambda's
 * awsRequestId, which the platform's START/END/REPORT lines also carry) and, for API Gateway events,
 * `apiRequestId` (the HTTP API's or WebSocket API's own id, the one in its access log). The handler
 * wrappers (functions/common/http.ts, timer.ts, socket.ts) run each invocation inside
 * `withRequestContext`, so concurrent invocations in one process (the local runtime) keep theirs apart.
 */
type Fields = Record<string, string | number | boolean | undefined>;

export interface RequestContext {
  /** Lambda's request id (context.awsRequestId). */
  requestId?: string;
  /** API Gateway's request id (event.requestContext.requestId), where the event came through it. */
  apiRequestId?: string;
}

const requestContext = new AsyncLocalStorage<RequestContext>();
/** The function running now, by its manifest name: kept apart from the log lines' fields (Lambda's log stream names it already). */
const runningFunction = new AsyncLocalStorage<string>();

/**
 * The manifest name of the function whose invocation is running now, where its wrapper was told
 * it: the tests check each command a handler sends against that function's table grant.
 */
export function currentFunctionName(): string | undefined {
  return runningFunction.getStore();
}

/** The ids of the invocation running now, if any. */
export function currentRequestContext(): RequestContext | undefined {
  return requestContext.getStore();
}

/** The ids a Lambda invocation carries: its context's request id and the API's, if it has one. */
export function requestContextOf(event: unknown, context: unknown): RequestContext {
  const requestId = (context as { awsRequestId?: unknown } | null | undefined)?.awsRequestId;
  const apiRequestId = (event as { requestContext?: { requestId?: unknown } } | null | undefined)?.requestContext?.requestId;
  return {
    ...(typeof requestId === 'string' && requestId ? { requestId } : {}),
    ...(typeof apiRequestId === 'string' && apiRequestId ? { apiRequestId } : {}),
  };
}

/**
 * Wraps a Lambda handler so that every log line of one invocation carries its ids, and the
 * invocation knows its function's name when given (`functionName`). The wrapped handler keeps the
 * original's properties (e.g. the http() stack's `bodySchema`).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function withRequestContext<H extends (event: any, context?: any) => unknown>(handler: H, functionName?: string): H {
  const run = (event: Parameters<H>[0], context?: Parameters<H>[1]) => requestContext.run(requestContextOf(event, context), () => handler(event, context));
  const wrapped = (event: Parameters<H>[0], context?: Parameters<H>[1]) =>
    functionName === undefined ? run(event, context) : runningFunction.run(functionName, () => run(event, context));
  return Object.assign(wrapped, handler) as unknown as H;
}

function write(level: 'info' | 'warn' | 'error', message: string, fields: Fields = {}): void {
  const line = JSON.stringify({ level, message, time: new Date().toISOString(), ...requestContext.getStore(), ...fields });
  if (level === 'error') console.error(line);
  else console.log(line);
}

export const logger = {
  info: (message: string, fields?: Fields) => write('info', message, fields),
  warn: (message: string, fields?: Fields) => write('warn', message, fields),
  error: (message: string, fields?: Fields) => write('error', message, fields),
};
