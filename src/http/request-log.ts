import type { RequestHandler } from 'express';
import type { Logger } from '../logger.js';

/**
 * One line per request with its id, route and timing. Deliberately no client address, query string or headers:
 * those may hold IPs or keys.
 */
export function requestLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info(
        { requestId: res.locals.requestId, method: req.method, route: req.route?.path ?? req.path, status: res.statusCode, ms: Math.round(ms * 10) / 10 },
        'request',
      );
    });
    next();
  };
}
