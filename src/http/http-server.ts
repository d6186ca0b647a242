import http, { type RequestListener, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { HttpTimeouts } from '../config.js';

/**
 * How often Node looks for requests past their headers or request timeout (its own default is 30 s, which would let a
 * connection outlive its timeout by that much).
 */
const CHECK_EVERY_MS = 1000;

/**
 * The server the app listens with: a client that has not sent its headers within `headersMs`, or its whole request
 * within `requestMs` (a body sent half, or a byte at a time), gets a JSON 408 and its connection is closed; a
 * keep-alive connection idle for `keepAliveMs` is closed. What Node refuses before the app sees a request (malformed
 * HTTP, headers over 16 KB) is answered in JSON too, as every other error.
 */
export function createHttpServer(app: RequestListener, timeouts: HttpTimeouts): Server {
  const server = http.createServer(
    {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      keepAliveTimeout: timeouts.keepAliveMs,
      connectionsCheckingInterval: CHECK_EVERY_MS,
    },
    app,
  );
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex & { bytesWritten?: number }) => {
    // as Node's own handler: answer only on a connection nothing was written to yet (no answer under way)
    if (err.code === 'ECONNRESET' || !socket.writable || socket.bytesWritten) {
      socket.destroy();
      return;
    }
    const [status, error] = refusal(err, timeouts);
    const body = JSON.stringify({ error });
    socket.end(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
      () => socket.destroy(),
    );
  });
  return server;
}

function refusal(err: NodeJS.ErrnoException, timeouts: HttpTimeouts): [number, string] {
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return [
      408,
      `The request did not arrive in time: its headers must arrive within ${timeouts.headersMs / 1000} s and the whole request within ${timeouts.requestMs / 1000} s`,
    ];
  if (err.code === 'HPE_HEADER_OVERFLOW') return [431, 'The request headers are too large'];
  return [400, 'Malformed HTTP request'];
}
