import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';

/** A body limit as Express's parsers take one: bytes, or kilobytes or megabytes (of 1,024). */
export type BodyLimit = number | `${number}${'kb' | 'mb'}`;

/** Body bytes read and dropped after a 413 before the connection is closed anyway. */
const DISCARD_BYTES = 64 * 1024 * 1024;
/** How long the rest of the body may pause, and take in all, before the connection is closed anyway. */
const DISCARD_IDLE_MS = 2_000;
const DISCARD_MAX_MS = 30_000;

/**
 * Answers 413 at once when a request declares a body (`Content-Length`, not compressed) over `limit` bytes. Express's
 * body parsers read such a body before they answer, which a slow or hostile client can stretch to the request
 * timeout; this answers before a byte of it is read. Mounted before each body parser with the parser's own limit.
 */
export function bodyLimit(limit: BodyLimit): RequestHandler {
  const max =
    typeof limit === 'number' ? limit : Number.parseFloat(limit) * (limit.endsWith('mb') ? 1024 * 1024 : 1024);
  return (req, _res, next) => {
    const declared = req.headers['content-length'];
    const encoding = req.headers['content-encoding']?.trim().toLowerCase() ?? 'identity';
    if (declared === undefined || (encoding !== 'identity' && encoding !== '') || Number(declared) <= max) {
      next();
      return;
    }
    discardBody(req);
    // the body parser's own error for a body over its limit, so error-handler.ts answers both alike
    next(Object.assign(new Error('request entity too large'), { type: 'entity.too.large', status: 413, limit: max }));
  };
}

/**
 * Reads and drops the body of a request answered early, then keeps the connection; gives up, closing it, once the
 * body goes past a bound of bytes or time. Closing at once (as `Connection: close` does) resets the connection while
 * the client is still sending, and a client that is (Node's http, curl) then fails with EPIPE or ECONNRESET before it
 * reads the answer; the bound keeps a client from holding the server with a body that never ends.
 */
function discardBody(req: IncomingMessage): void {
  let discarded = 0;
  const started = Date.now();
  let idle: NodeJS.Timeout | undefined;
  const stop = () => {
    clearTimeout(idle);
    req.off('data', onData);
  };
  const giveUp = () => {
    stop();
    // the answer was queued before any of this: destroy() drops only what is still arriving
    req.socket.destroy();
  };
  const wait = () => {
    clearTimeout(idle);
    idle = setTimeout(giveUp, Math.min(DISCARD_IDLE_MS, Math.max(0, started + DISCARD_MAX_MS - Date.now())));
    idle.unref();
  };
  function onData(chunk: Buffer) {
    discarded += chunk.length;
    if (discarded > DISCARD_BYTES) giveUp();
    else wait();
  }
  req.on('data', onData);
  req.once('end', stop);
  req.once('close', stop);
  wait();
}
