import type { RequestHandler } from 'express';
import type { Logger } from '../logger.js';

/**
 * The one line logged per request, with its id, route and timing. Deliberately no client address, query string or
 * headers: those may hold IPs or keys.
 */
export function logRequest(
  logger: Logger,
  params: { requestId: unknown; method: string; route: string; status: number; startedNs: bigint },
): void {
  const ms = Number(process.hrtime.bigint() - params.startedNs) / 1e6;
  logger.info(
    {
      requestId: params.requestId,
      method: params.method,
      route: params.route,
      status: params.status,
      ms: Math.round(ms * 10) / 10,
    },
    'request',
  );
}

/** Logs every request once it is answered (see logRequest). */
export function requestLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const startedNs = process.hrtime.bigint();
    res.on('finish', () => {
      logRequest(logger, {
        requestId: res.locals.requestId,
        method: req.method,
        route: req.route?.path ?? req.path,
        status: res.statusCode,
        startedNs,
      });
    });
    next();
  };
}
