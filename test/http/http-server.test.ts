import type { RouteModule } from '../../src/http/app.js';
import { jsonBody } from '../../src/http/json-body.js';
import { healthRoutes } from '../../src/http/routes/health.js';
import { PROVIDERS } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { connect, parseAnswer, type RawConnection } from '../support/raw-http.js';

/** A JSON body route and an answer that takes longer than a request may take to arrive. */
const probeRoutes: RouteModule = (router) => {
  router.post('/v1/echo', ...jsonBody(), (req, res) => {
    res.json({ got: req.body });
  });
  router.get('/v1/slow', (_req, res) => {
    setTimeout(() => res.json({ slow: true }), 1500);
  });
};

const TIMED_OUT = {
  error: 'The request did not arrive in time: its headers must arrive within 0.5 s and the whole request within 1 s',
};

describe.each(PROVIDERS)('the HTTP server on %s', (provider) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({
      provider,
      routes: [healthRoutes, probeRoutes],
      env: {
        SCRIBE_HTTP_HEADERS_TIMEOUT: '0.5',
        SCRIBE_HTTP_REQUEST_TIMEOUT: '1',
        SCRIBE_HTTP_KEEP_ALIVE_TIMEOUT: '0.5',
      },
    });
  });
  afterAll(async () => {
    await app.close();
  });

  /** opens `count` connections, sends `text` on each, and returns what each got before the server closed it */
  async function hold(count: number, text: string): Promise<(string | null)[]> {
    const connections: RawConnection[] = [];
    for (let i = 0; i < count; i++) connections.push(await connect(app.url));
    for (const c of connections) c.send(text);
    try {
      // Node's own timeouts would keep them for 60 s (headers) and 300 s (request)
      return await Promise.all(connections.map((c) => c.closed(10_000)));
    } finally {
      for (const c of connections) c.destroy();
    }
  }

  it('closes 100 connections whose headers do not arrive in time, each with a JSON 408', async () => {
    const answers = await hold(100, 'GET /healthz HTTP/1.1\r\nHost: scribe\r\nX-Half: ');
    expect(answers.filter((a) => a === null)).toEqual([]);
    for (const answer of answers) {
      expect(parseAnswer(answer!)).toMatchObject({ status: 408, body: TIMED_OUT });
      expect(answer).toMatch(/\r\nX-Content-Type-Options: nosniff\r\n/);
    }
  });

  it('closes 100 connections holding half-sent bodies, each with a JSON 408', async () => {
    const answers = await hold(
      100,
      'POST /v1/echo HTTP/1.1\r\nHost: scribe\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":',
    );
    expect(answers.filter((a) => a === null)).toEqual([]);
    for (const answer of answers) expect(parseAnswer(answer!)).toMatchObject({ status: 408, body: TIMED_OUT });
  });

  it('answers a request that arrived in time however long the answer takes; an idle keep-alive connection is closed', async () => {
    const connection = await connect(app.url);
    connection.send('GET /v1/slow HTTP/1.1\r\nHost: scribe\r\n\r\n');
    const answered = await connection.received('{"slow":true}', 10_000);
    expect(answered).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    // closed after the configured 0.5 s idle, long before Node's default 5 s
    expect(await connection.closed(3_000)).toBe(answered);
  });

  it('answers malformed HTTP with a JSON 400, and headers over 16 KB with a JSON 431', async () => {
    const malformed = await connect(app.url);
    malformed.send('NOT HTTP AT ALL\r\n\r\n');
    expect(parseAnswer((await malformed.closed(10_000))!)).toMatchObject({
      status: 400,
      body: { error: 'Malformed HTTP request' },
    });
    const oversized = await connect(app.url);
    oversized.send(`GET /healthz HTTP/1.1\r\nHost: scribe\r\nX-Big: ${'x'.repeat(17 * 1024)}\r\n\r\n`);
    expect(parseAnswer((await oversized.closed(10_000))!)).toMatchObject({
      status: 431,
      body: { error: 'The request headers are too large' },
    });
  });
});
