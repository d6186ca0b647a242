import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';

/** What a receiver answered, or why it could not. */
export type SendResult =
  | { status: number; body: string; durationMs: number; retryAfter: string | null }
  | { error: string; durationMs: number };

/** The first bytes of an answer kept for the delivery log. */
export const KEPT_RESPONSE_BYTES = 1024;

/**
 * POSTs one delivery. The connection goes to `address`, the one the target check resolved and vetted, never to a
 * fresh lookup (DNS rebinding); the URL's host still names the server (Host header, TLS SNI and certificate). A
 * redirect is an answer like any other, never followed; the whole exchange is cut at `timeoutMs`.
 */
export function sendMessage(params: {
  url: URL;
  address: { address: string; family: number };
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
}): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const pinned: LookupFunction = (_host, options, callback) => {
    if ((options as { all?: boolean }).all)
      (callback as (err: null, addresses: { address: string; family: number }[]) => void)(null, [params.address]);
    else callback(null, params.address.address, params.address.family);
  };
  const client = params.url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const done = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const req = client.request(
      params.url,
      {
        method: 'POST',
        lookup: pinned,
        agent: false,
        headers: {
          ...params.headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(params.body)),
          'user-agent': 'Scribe-Webhooks/1',
        },
      },
      (res) => {
        const kept: Buffer[] = [];
        let size = 0;
        const finish = () =>
          done({
            status: res.statusCode ?? 0,
            body: Buffer.concat(kept).subarray(0, KEPT_RESPONSE_BYTES).toString('utf8'),
            durationMs: elapsed(),
            retryAfter: typeof res.headers['retry-after'] === 'string' ? res.headers['retry-after'] : null,
          });
        res.on('data', (chunk: Buffer) => {
          if (size < KEPT_RESPONSE_BYTES) kept.push(chunk);
          size += chunk.length;
          // the rest of a long answer is not read: the status is what counts
          if (size >= KEPT_RESPONSE_BYTES) {
            finish();
            res.destroy();
          }
        });
        res.on('end', finish);
        res.on('error', finish);
      },
    );
    const timer = setTimeout(() => {
      done({ error: `timed out after ${params.timeoutMs / 1000} s`, durationMs: elapsed() });
      req.destroy();
    }, params.timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) =>
      done({ error: `${err.code ?? 'error'}: ${err.message}`.slice(0, 300), durationMs: elapsed() }),
    );
    req.end(params.body);
  });
}
