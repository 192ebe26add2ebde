/**
 * Typed API errors. Every error is answered with the official error body
 * `{"error":{"code":<http status>,"message":"..."}}`.
 */
export class ApiError extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.name = new.target.name;
    this.status = status;
  }

  toBody(): ErrorBody {
    return errorBody(this.status, this.message);
  }
}

export class BadRequestError extends ApiError {
  constructor(message: string) {
    super(400, message);
  }
}

export class UnauthorizedError extends ApiError {
  constructor(message = "Unauthorized: a valid bearer token is required") {
    super(401, message);
  }
}

export class ForbiddenError extends ApiError {
  constructor(message = "Forbidden") {
    super(403, message);
  }
}

export class NotFoundError extends ApiError {
  constructor(message: string) {
    super(404, message);
  }
}

export class ConflictError extends ApiError {
  constructor(message: string) {
    super(409, message);
  }
}

export class PreconditionFailedError extends ApiError {
  constructor(message: string) {
    super(412, message);
  }
}

export class PayloadTooLargeError extends ApiError {
  constructor(message = "Request body is too large") {
    super(413, message);
  }
}

export class InternalError extends ApiError {
  constructor(message = "Internal server error") {
    super(500, message);
  }
}

/** The official error envelope; `code` is always the HTTP status of the answer. */
export type ErrorBody = { error: { code: number; message: string } };

export function errorBody(status: number, message: string): ErrorBody {
  return { error: { code: status, message } };
}
