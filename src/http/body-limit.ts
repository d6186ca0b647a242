import type { RequestHandler } from 'express';

/** A body limit as Express's parsers take one: bytes, or kilobytes or megabytes (of 1,024). */
export type BodyLimit = number | `${number}${'kb' | 'mb'}`;

/**
 * Answers 413 at once when a request declares a body (`Content-Length`, not compressed) over `limit` bytes. Express's
 * body parsers read such a body to its end, dropping it, before they answer, which a slow or hostile client can
 * stretch to the request timeout; this answers before a byte of it is read, and closes the connection after the
 * answer, so the rest is never waited for. Mounted before each body parser with the parser's own limit.
 */
export function bodyLimit(limit: BodyLimit): RequestHandler {
  const max =
    typeof limit === 'number' ? limit : Number.parseFloat(limit) * (limit.endsWith('mb') ? 1024 * 1024 : 1024);
  return (req, res, next) => {
    const declared = req.headers['content-length'];
    const encoding = req.headers['content-encoding']?.trim().toLowerCase() ?? 'identity';
    if (declared === undefined || (encoding !== 'identity' && encoding !== '') || Number(declared) <= max) {
      next();
      return;
    }
    res.setHeader('Connection', 'close');
    // the body parser's own error for a body over its limit, so error-handler.ts answers both alike
    next(Object.assign(new Error('request entity too large'), { type: 'entity.too.large', status: 413, limit: max }));
  };
}
