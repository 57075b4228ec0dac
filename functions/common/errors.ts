/**
 * Typed domain errors. Throw them anywhere; the error middleware turns them into
 * `{ error: <name>, message, fields? }` with their status. Anything else becomes a bare 500.
 */
export abstract class HttpError extends Error {
  abstract readonly status: number;
  constructor(message: string) {
    super(message);
  }
  /**
   * Each error says its own name as a string: the deployed bundles are minified, and a class's own
   * name (new.target.name) would reach the caller as "yn" there.
   */
  abstract override readonly name: string;
}

export class ValidationError extends HttpError {
  override readonly name = 'ValidationError';
  readonly status = 400;
  constructor(
    message: string,
    readonly fields: Record<string, string>,
  ) {
    super(message);
  }
}
export class BadRequestError extends HttpError {
  override readonly name = 'BadRequestError';
  readonly status = 400;
}
export class UnauthorizedError extends HttpError {
  override readonly name = 'UnauthorizedError';
  readonly status = 401;
}
export class ForbiddenError extends HttpError {
  override readonly name = 'ForbiddenError';
  readonly status = 403;
}
export class NotFoundError extends HttpError {
  override readonly name = 'NotFoundError';
  readonly status = 404;
}
export class ConflictError extends HttpError {
  override readonly name = 'ConflictError';
  readonly status = 409;
}
/** What the request names existed once and is gone for good (a spent or expired link). */
export class GoneError extends HttpError {
  override readonly name = 'GoneError';
  readonly status = 410;
}
export class PayloadTooLargeError extends HttpError {
  override readonly name = 'PayloadTooLargeError';
  readonly status = 413;
}
export class UnsupportedMediaTypeError extends HttpError {
  override readonly name = 'UnsupportedMediaTypeError';
  readonly status = 415;
}
export class TooManyRequestsError extends HttpError {
  override readonly name = 'TooManyRequestsError';
  readonly status = 429;
  constructor(
    message: string,
    /** Sent as Retry-After. */
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/**
 * A service we depend on (DynamoDB, S3, Scheduler, Stripe) is throttling, timing out or down:
 * "not now" rather than "never", so the caller is told when to try again (Retry-After).
 */
export class ServiceUnavailableError extends HttpError {
  override readonly name = 'ServiceUnavailableError';
  readonly status = 503;
  constructor(
    message: string,
    /** Sent as Retry-After. */
    readonly retryAfterSeconds = 5,
  ) {
    super(message);
  }
}
