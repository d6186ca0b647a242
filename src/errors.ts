/**
 * Domain errors. Modules throw these; src/http/error-handler.ts maps them to status codes in one place.
 */
export interface ErrorDetail {
  message: string;
}

export class DomainError extends Error {
  constructor(
    message: string,
    readonly details?: ErrorDetail[],
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** 400: a field or parameter is missing or invalid. */
export class Invalid extends DomainError {}
/** 401: no usable credentials. */
export class Unauthenticated extends DomainError {}
/** 403: credentials are valid but not for this. */
export class Forbidden extends DomainError {}
/** 404 */
export class NotFound extends DomainError {}
/** 409: the resource is in a state that does not allow this. */
export class Conflict extends DomainError {}
/** 429 */
export class RateLimited extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}
/** 502: a service the request relies on (GitHub) failed or could not be reached; worth trying again later. */
export class UpstreamFailed extends DomainError {}
/** 503: a dependency or configuration the request needs is missing; with `retryAfterSeconds` when worth retrying. */
export class Unavailable extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}
/** 504: a service the request relies on (GitHub) did not answer in time; worth trying again later. */
export class UpstreamTimedOut extends DomainError {}
