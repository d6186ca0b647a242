import http from 'node:http';
import zlib from 'node:zlib';
import type { RouteModule } from '../../src/http/app.js';
import { jsonBody } from '../../src/http/json-body.js';
import { analyticsRoutes } from '../../src/http/routes/analytics.js';
import { analyticsFeedbackRoutes } from '../../src/http/routes/analytics-feedback.js';
import { MAX_DELIVERY_BYTES } from '../../src/webhooks/delivery-problem.js';
import { PROVIDERS } from '../support/databases.js';
import { jobRoutes, startTestApp, type TestApp } from '../support/test-app.js';
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
      routes: ({ analytics }) => [
        probeRoutes,
        analyticsRoutes({ analytics }),
        analyticsFeedbackRoutes({ analytics }),
        jobRoutes(),
      ],
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
  ])(
    '%s answers 413 before a byte of the body arrives, and closes a connection whose body does not follow',
    async (path, type, limit) => {
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
    },
  );

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

  /** `method path` with a body of `bytes` bytes sent through Node's http client, as an ordinary client sends it */
  const send = (params: {
    method: string;
    path: string;
    type: string;
    bytes: number;
    key?: string;
    agent?: http.Agent;
  }) =>
    new Promise<{ status: number; body: unknown; connection: string | undefined; port: number }>((resolve, reject) => {
      const req = http.request(`${app.url}${params.path}`, {
        method: params.method,
        agent: params.agent,
        headers: {
          'content-type': params.type,
          'content-length': params.bytes,
          ...(params.key ? { authorization: `Bearer ${params.key}` } : {}),
        },
      });
      req.on('response', (res) => {
        // read now: the socket goes back to the agent once the answer has ended
        const port = res.socket.localPort!;
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            body: JSON.parse(text),
            connection: res.headers.connection,
            port,
          }),
        );
      });
      req.on('error', reject);
      req.end(Buffer.alloc(params.bytes, 'x'));
    });

  it('answers 413 readably to a client that sends the whole oversized body, on every route that reads one', async () => {
    const project = await app.project();
    const key = await app.key(project.id, 'write');
    const mb = 1024 * 1024;
    const routes: [string, string, string, number][] = [
      ['POST', `/v1/analytics/${project.id}/searches`, 'application/json', 4 * mb],
      ['POST', `/v1/analytics/${project.id}/feedback`, 'application/json', 4 * mb],
      ['PATCH', `/v1/analytics/${project.id}/feedback/fb_1`, 'application/json', mb],
      ['POST', `/v1/analytics/${project.id}/events`, 'application/json', 32 * mb],
      ['POST', `/v2/agent/${project.id}/job`, 'application/json', mb],
      ['POST', `/v2/agent/${project.id}/job/job_1/message`, 'application/json', mb],
      ['POST', '/api/event', 'text/plain', 8192],
      ['POST', '/api/feedback', 'text/plain', 16 * 1024],
      ['POST', '/api/search', 'text/plain', 16 * 1024],
      ['POST', '/api/github/webhooks', 'application/json', MAX_DELIVERY_BYTES],
    ];
    for (const [method, path, type, limit] of routes) {
      const { port: _, ...answer } = await send({ method, path, type, bytes: limit + 10, key });
      expect({ path, ...answer }).toEqual({
        path,
        status: 413,
        body: { error: `Request body is too large (limit ${limit} bytes)` },
        connection: 'keep-alive',
      });
    }
  });

  it('keeps the connection for the next request once the oversized body has been read and dropped', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const post = () => send({ method: 'POST', path: '/v1/echo', type: 'application/json', bytes: 5000, agent });
      const first = await post();
      const second = await post();
      expect([first.status, second.status]).toEqual([413, 413]);
      // the same client port: the second request went over the first one's connection
      expect(second.port).toBe(first.port);
    } finally {
      agent.destroy();
    }
  });
});
