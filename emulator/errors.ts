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

  toBody(): { error: { code: number; message: string } } {
    return { error: { code: this.status, message: this.message } };
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

export function errorBody(status: number, message: string): { error: { code: number; message: string } } {
  return { error: { code: status, message } };
}
