import zlib from 'node:zlib';
import type { RouteModule } from '../../src/http/app.js';
import { jsonBody } from '../../src/http/json-body.js';
import { analyticsRoutes } from '../../src/http/routes/analytics.js';
import { analyticsFeedbackRoutes } from '../../src/http/routes/analytics-feedback.js';
import { PROVIDERS } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { connect, parseAnswer } from '../support/raw-http.js';

const probeRoutes: RouteModule = (router) => {
  router.post('/v1/echo', ...jsonBody({ limit: '1kb' }), (req, res) => {
    res.json({ got: req.body });
  });
};

describe.each(PROVIDERS)("a body declared over its route's limit on %s", (provider) => {
  let app: TestApp;
  beforeAll(async () => {
    // Node's own request timeout (300 s) would be the only bound on a body parser reading a body that never comes
    app = await startTestApp({
      provider,
      routes: ({ analytics }) => [probeRoutes, analyticsRoutes({ analytics }), analyticsFeedbackRoutes({ analytics })],
      env: { SCRIBE_HTTP_REQUEST_TIMEOUT: '300', SCRIBE_HTTP_HEADERS_TIMEOUT: '60' },
    });
  });
  afterAll(async () => {
    await app.close();
  });

  it.each([
    ['/v1/echo', 'application/json', 1024],
    ['/api/event', 'text/plain', 8192],
    ['/api/feedback', 'text/plain', 16 * 1024],
  ])('%s answers 413 before a byte of the body arrives, and closes the connection', async (path, type, limit) => {
    const connection = await connect(app.url);
    connection.send(
      `POST ${path} HTTP/1.1\r\nHost: scribe\r\nContent-Type: ${type}\r\nContent-Length: 50000000\r\n\r\n`,
    );
    const answer = await connection.closed(10_000);
    connection.destroy();
    expect(answer).not.toBeNull();
    expect(parseAnswer(answer!)).toMatchObject({
      status: 413,
      body: { error: `Request body is too large (limit ${limit} bytes)` },
    });
  });

  it('reads a body within the limit, and a compressed one by what it decompresses to', async () => {
    const post = async (body: unknown, gzip = false) => {
      const text = JSON.stringify(body);
      const res = await fetch(`${app.url}/v1/echo`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(gzip ? { 'content-encoding': 'gzip' } : {}) },
        body: gzip ? zlib.gzipSync(text) : text,
      });
      return { status: res.status, body: await res.json() };
    };
    const tooLarge = { status: 413, body: { error: 'Request body is too large (limit 1024 bytes)' } };
    expect(await post({ a: 'x'.repeat(900) })).toEqual({ status: 200, body: { got: { a: 'x'.repeat(900) } } });
    expect(await post({ a: 'x'.repeat(2000) })).toEqual(tooLarge);
    // small on the wire, within the limit decompressed; then small on the wire, over it decompressed
    expect(await post({ a: 'x'.repeat(900) }, true)).toMatchObject({ status: 200 });
    expect(await post({ a: 'x'.repeat(5000) }, true)).toEqual(tooLarge);
  });
});
