import zlib from 'node:zlib';
import { analyticsRoutes } from '../../src/http/routes/analytics.js';
import { analyticsBreakdownRoutes } from '../../src/http/routes/analytics-breakdowns.js';
import { analyticsFeedbackRoutes } from '../../src/http/routes/analytics-feedback.js';
import { healthRoutes } from '../../src/http/routes/health.js';
import { appendEvent, MAX_EVENT_ID } from '../../src/jobs/job-store.js';
import { routedOperations } from '../support/openapi-conformance.js';
import { startTestApp, type TestApp, jobRoutes } from '../support/test-app.js';
import { PROVIDERS } from '../support/databases.js';
import { testAppPrivateKey } from '../support/app-private-key.js';

const CONFIGURED = {
  APP_ID: '12',
  PRIVATE_KEY: testAppPrivateKey(),
  ANTHROPIC_API_KEY: 'sk-test',
  SCRIBE_JOB_RATE_LIMIT: '1000',
};

/** The path parameters a hostile client puts in a URL: each is not valid percent-encoding of UTF-8. */
const MALFORMED = ['%zz', '%', '%E0%A4%A', '%ff%fe', '%u0000'];

async function expectJsonError(
  res: Response,
  status: number,
  error: RegExp,
): Promise<{ error: string; details?: { message: string }[] }> {
  const text = await res.text();
  expect({ status: res.status, text }).toMatchObject({ status });
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const body = JSON.parse(text) as { error: string };
  expect(body.error).toMatch(error);
  return body;
}

describe.each(PROVIDERS)('hostile input on %s', (provider) => {
  let app: TestApp;
  let projectId: string;
  let writeKey: string;
  let jobId: string;
  beforeAll(async () => {
    app = await startTestApp({
      provider,
      routes: ({ analytics }) => [
        healthRoutes,
        analyticsRoutes({ analytics }),
        analyticsBreakdownRoutes({ analytics }),
        analyticsFeedbackRoutes({ analytics }),
        jobRoutes(),
      ],
      env: CONFIGURED,
    });
    projectId = (await app.project({ hostnames: ['docs.example.com'] })).id;
    writeKey = await app.key(projectId, 'write');
    const created = await fetch(`${app.url}/v2/agent/${projectId}/job`, {
      method: 'POST',
      headers: { authorization: `Bearer ${writeKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'Fix the typo on the intro page' }),
    });
    jobId = ((await created.json()) as { id: string }).id;
  });
  afterAll(async () => {
    await app.close();
  });

  it('answers malformed percent-encoding in any path parameter with 400, before authentication', async () => {
    const routes = routedOperations(app.app).filter((op) => op.includes('{'));
    // every route of the public API with :projectId or :id: six of analytics, six of agent jobs
    expect(routes.length).toBeGreaterThanOrEqual(12);
    let probes = 0;
    for (const operation of routes) {
      const [method, template] = operation.split(' ');
      const params = template.match(/\{\w+\}/g)!;
      for (const bad of MALFORMED) {
        for (const target of params) {
          const path = template.replace(/\{(\w+)\}/g, (param) =>
            param === target ? bad : param === '{projectId}' ? projectId : 'job_x',
          );
          const res = await fetch(`${app.url}${path}`, { method: method.toUpperCase() });
          await expectJsonError(res, 400, /^Malformed percent-encoding in the request path$/);
          probes++;
        }
      }
    }
    expect(probes).toBeGreaterThanOrEqual(12 * MALFORMED.length);
  });

  it('answers a body that does not match its Content-Encoding with 400 on every body-parsing route', async () => {
    const routes: { path: string; type: string; auth: boolean }[] = [
      { path: '/api/event', type: 'text/plain', auth: false },
      { path: `/v1/analytics/${projectId}/events`, type: 'application/json', auth: true },
      { path: `/v1/analytics/${projectId}/logs`, type: 'text/plain', auth: true },
      { path: '/api/feedback', type: 'text/plain', auth: false },
      { path: '/api/search', type: 'text/plain', auth: false },
      { path: `/v1/analytics/${projectId}/feedback`, type: 'application/json', auth: true },
      { path: `/v1/analytics/${projectId}/searches`, type: 'application/json', auth: true },
      { path: `/v2/agent/${projectId}/job`, type: 'application/json', auth: true },
      { path: `/v2/agent/${projectId}/job/${jobId}/message`, type: 'application/json', auth: true },
    ];
    for (const route of routes) {
      for (const encoding of ['gzip', 'deflate', 'br']) {
        const res = await fetch(`${app.url}${route.path}`, {
          method: 'POST',
          headers: {
            'content-type': route.type,
            'content-encoding': encoding,
            ...(route.auth ? { authorization: `Bearer ${writeKey}` } : {}),
          },
          body: 'xx',
        });
        await expectJsonError(res, 400, /^Request body does not match its Content-Encoding$/);
      }
      const unknown = await fetch(`${app.url}${route.path}`, {
        method: 'POST',
        headers: {
          'content-type': route.type,
          'content-encoding': 'zstd-x',
          ...(route.auth ? { authorization: `Bearer ${writeKey}` } : {}),
        },
        body: 'xx',
      });
      await expectJsonError(unknown, 415, /Content-Encoding|content encoding/i);
    }
  });

  it('imports a gzip-compressed access log like a plain one', async () => {
    const line = (n: number) =>
      `203.0.113.${n} - - [10/Nov/2026:10:00:0${n} +0000] "GET /guide/intro HTTP/1.1" 200 512 "-" "Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0"`;
    const log = `${[1, 2, 3].map(line).join('\n')}\n`;
    const res = await fetch(`${app.url}/v1/analytics/${projectId}/logs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${writeKey}`, 'content-type': 'text/plain', 'content-encoding': 'gzip' },
      body: zlib.gzipSync(log),
    });
    expect(res.status).toBe(202);
    expect(await res.json()).toMatchObject({ lines: 3, accepted: 3, duplicates: 0, format: 'combined' });
  });

  it('takes any event id as a cursor: past the column there is nothing, past 64 bits it is a 400', async () => {
    await appendEvent({ db: app.ctx.db, clock: app.ctx.clock, jobId, type: 'note', data: { text: 'hello' } });
    const events = (path: string, headers: Record<string, string> = {}) =>
      fetch(`${app.url}/v2/agent/${projectId}/job/${jobId}/events${path}`, {
        headers: { authorization: `Bearer ${writeKey}`, ...headers },
      });
    const all = (await (await events('')).json()) as { events: { id: number }[] };
    expect(all.events.length).toBeGreaterThanOrEqual(2);
    const first = all.events[0].id;
    const afterFirst = (await (await events(`?after=${first}`)).json()) as { events: { id: number }[] };
    expect(afterFirst.events.map((e) => e.id)).toEqual(all.events.slice(1).map((e) => e.id));
    for (const beyond of [String(MAX_EVENT_ID), '2147483648', '9007199254740993', '9223372036854775807']) {
      const res = await events(`?after=${beyond}`);
      expect({ beyond, status: res.status }).toEqual({ beyond, status: 200 });
      expect(((await res.json()) as { events: unknown[] }).events).toEqual([]);
    }
    const padded = (await (await events(`?after=${'0'.repeat(30)}${first}`)).json()) as { events: { id: number }[] };
    expect(padded.events.map((e) => e.id)).toEqual(afterFirst.events.map((e) => e.id));
    const lastEventId = await events('', { 'last-event-id': '9223372036854775807' });
    expect(((await lastEventId.json()) as { events: unknown[] }).events).toEqual([]);
    for (const overflow of ['9223372036854775808', '99999999999999999999', '1'.repeat(400)]) {
      await expectJsonError(await events(`?after=${overflow}`), 400, /^Invalid query$/);
      await expectJsonError(await events('', { 'last-event-id': overflow }), 400, /^Invalid query$/);
    }
    for (const junk of ['-1', '1e3', '0x10', '1.5', ' 1'])
      await expectJsonError(await events(`?after=${encodeURIComponent(junk)}`), 400, /^Invalid query$/);
  });
});
