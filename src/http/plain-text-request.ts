import type { IncomingHttpHeaders } from 'node:http';

/** The Content-Types a browser submission arrives with whose body is UTF-8 (sendBeacon's and fetch's JSON). */
const UTF8_TYPES = new Set([
  'text/plain',
  'text/plain;charset=utf-8',
  'text/plain; charset=utf-8',
  'application/json',
  'application/json;charset=utf-8',
  'application/json; charset=utf-8',
]);

/**
 * Whether a request's body is plain UTF-8 text of a known length within `limit` bytes: no Content-Encoding, no
 * chunked transfer, a Content-Length, and no Content-Type or one of the usual ones above. Such a body is read as is;
 * anything else needs the full body parser (decompression, other charsets, limits enforced while streaming).
 */
export function isPlainTextRequest(headers: IncomingHttpHeaders, limit: number): boolean {
  if (headers['content-encoding'] !== undefined || headers['transfer-encoding'] !== undefined) return false;
  const length = headers['content-length'];
  if (length === undefined || !/^\d{1,9}$/.test(length) || Number(length) > limit) return false;
  const type = headers['content-type'];
  return type === undefined || UTF8_TYPES.has(type.toLowerCase());
}
