/**
 * Typed domain errors. Throw them anywhere; the error middleware turns them into
 * `{ error: <name>, message, fields? }` with their status. Anything else becomes a bare 500.
 */
export abstract class HttpError extends Error {
  abstract readonly status: number;
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationError extends HttpError {
  readonly status = 400;
  constructor(
    message: string,
    readonly fields: Record<string, string>,
  ) {
    super(message);
  }
}
export class BadRequestError extends HttpError {
  readonly status = 400;
}
export class UnauthorizedError extends HttpError {
  readonly status = 401;
}
export class ForbiddenError extends HttpError {
  readonly status = 403;
}
export class NotFoundError extends HttpError {
  readonly status = 404;
}
export class ConflictError extends HttpError {
  readonly status = 409;
}
export class PayloadTooLargeError extends HttpError {
  readonly status = 413;
}
export class UnsupportedMediaTypeError extends HttpError {
  readonly status = 415;
}
export class TooManyRequestsError extends HttpError {
  readonly status = 429;
  constructor(
    message: string,
    /** Sent as Retry-After. */
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}
