import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from '../logger.js';
import {
  Conflict,
  DomainError,
  Forbidden,
  Invalid,
  NotFound,
  RateLimited,
  Unauthenticated,
  Unavailable,
  UpstreamFailed,
  UpstreamTimedOut,
} from '../errors.js';
import { UnsupportedMediaType } from './json-body.js';

const STATUS: [new (...args: never[]) => DomainError, number][] = [
  [Invalid, 400],
  [Unauthenticated, 401],
  [Forbidden, 403],
  [NotFound, 404],
  [Conflict, 409],
  [UnsupportedMediaType, 415],
  [RateLimited, 429],
  [UpstreamFailed, 502],
  [Unavailable, 503],
  [UpstreamTimedOut, 504],
];

export const notFoundRoute: RequestHandler = (req, _res, next) => {
  next(new NotFound(`No route for ${req.method} ${req.path}`));
};

interface BodyParserError extends Error {
  type?: string;
  status?: number;
  limit?: number;
  expose?: boolean;
  /** zlib's code (Z_DATA_ERROR, Z_BUF_ERROR…) when a Content-Encoding body does not decompress */
  code?: string;
}

/** The one place errors become HTTP: `{"error": sentence, "details"?: [...]}`, never HTML or a stack. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    const requestId = res.locals.requestId as string | undefined;
    const { status, body, retryAfter } = toResponse(err, requestId);
    if (status >= 500 && status !== 503) {
      logger.error({ err, requestId, method: req.method, route: req.route?.path ?? req.path }, 'request failed');
    }
    if (res.headersSent) {
      res.end();
      return;
    }
    if (retryAfter !== undefined) res.setHeader('Retry-After', String(retryAfter));
    res.status(status).json(body);
  };
}

function toResponse(err: unknown, requestId: string | undefined) {
  if (err instanceof DomainError) {
    // instanceof, so a module's own subclass of NotFound (say) keeps its parent's status
    const status = STATUS.find(([type]) => err instanceof type)?.[1] ?? 500;
    return {
      status,
      body: { error: err.message, ...(err.details?.length ? { details: err.details } : {}) },
      retryAfter: err instanceof RateLimited || err instanceof Unavailable ? err.retryAfterSeconds : undefined,
    };
  }
  const parserError = err as BodyParserError;
  switch (parserError?.type) {
    case 'entity.parse.failed':
      return {
        status: 400,
        body: { error: 'Malformed JSON in request body', details: [{ message: parserError.message }] },
      };
    case 'entity.too.large':
      return { status: 413, body: { error: `Request body is too large (limit ${parserError.limit} bytes)` } };
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return { status: 415, body: { error: parserError.message } };
    case 'request.aborted':
      return { status: 400, body: { error: 'Request was aborted' } };
  }
  // Express's router throws a URIError while matching a route, before any handler (authentication included) runs.
  if (err instanceof URIError) {
    return { status: 400, body: { error: 'Malformed percent-encoding in the request path' } };
  }
  if (typeof parserError?.code === 'string' && parserError.code.startsWith('Z_')) {
    return {
      status: 400,
      body: { error: 'Request body does not match its Content-Encoding', details: [{ message: parserError.message }] },
    };
  }
  // Anything else a library marked as the client's fault (http-errors' `expose`) keeps its 4xx and its message.
  const status = parserError?.status;
  if (parserError?.expose && typeof status === 'number' && status >= 400 && status < 500) {
    return { status, body: { error: parserError.message } };
  }
  return { status: 500, body: { error: `Internal server error (request id ${requestId ?? 'unknown'})` } };
}
