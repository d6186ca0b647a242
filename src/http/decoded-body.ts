import { pipeline, type Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { Request } from 'express';
import { UnsupportedMediaType } from './json-body.js';

const DECODERS: Record<string, (() => zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress) | undefined> = {
  gzip: () => zlib.createGunzip(),
  'x-gzip': () => zlib.createGunzip(),
  deflate: () => zlib.createInflate(),
  br: () => zlib.createBrotliDecompress(),
};

/**
 * The request body as a stream of its decoded bytes, for routes that read a body too large to parse at once (log
 * imports). Same encodings as Express's parsers; an unknown one is a 415. A body that does not decompress makes
 * the stream fail with zlib's `Z_…` error, which the error handler answers with 400.
 */
export function decodedBody(req: Request): Readable {
  const encoding = (req.get('content-encoding') ?? 'identity').trim().toLowerCase();
  if (encoding === 'identity' || encoding === '') return req;
  const decoder = Object.hasOwn(DECODERS, encoding) ? DECODERS[encoding] : undefined;
  if (!decoder)
    throw new UnsupportedMediaType(`Unsupported Content-Encoding "${encoding}": send gzip, deflate, br or identity`);
  // pipeline, not pipe: a failure on either side destroys both, so the reader sees the error instead of hanging.
  return pipeline(req, decoder(), () => {});
}
