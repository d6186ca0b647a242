import fs from 'node:fs';
import path from 'node:path';
import { analyticsRoutes } from '../../../../src/http/routes/analytics.js';
import { startTestApp, type TestApp } from '../../../support/test-app.js';
import { PROVIDERS } from '../../../support/databases.js';
import { compatibleValidators } from '../../../support/compatible-schemas.js';

const NOW = new Date('2026-11-21T12:00:00.000Z');
const FIXTURES = path.resolve(import.meta.dirname, '../../../fixtures/analytics');
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const validators = compatibleValidators();

type Row = { path: string; human: number; ai: number; total: number };

describe.each(PROVIDERS)('analytics ingest on %s', (provider) => {
  let app: TestApp;
  let key: string;

  beforeAll(async () => {
    app = await startTestApp({
      provider,
      routes: ({ analytics }) => [analyticsRoutes({ analytics })],
      clock: () => NOW,
    });
  });
  afterAll(async () => {
    await app.close();
  });

  /** a fresh project per test, so counts are the test's own */
  async function freshProject() {
    const project = await app.project({ hostnames: ['docs.example.com'] });
    key = await app.key(project.id, 'write');
    return project.id;
  }

  const events = (projectId: string, body: string, contentType = 'application/json') =>
    fetch(`${app.url}/v1/analytics/${projectId}/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': contentType },
      body,
    });

  const logs = (projectId: string, body: string | Buffer, contentType: string, format?: string) =>
    fetch(`${app.url}/v1/analytics/${projectId}/logs${format ? `?format=${format}` : ''}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': contentType },
      body,
    });

  async function exported(projectId: string, kind: 'visitors' | 'views' = 'visitors') {
    const res = await fetch(`${app.url}/v1/analytics/${projectId}/${kind}?dateFrom=2026-11-01`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const body = (await res.json()) as { totals: Omit<Row, 'path'>; visitors: Row[]; views: Row[] };
    expect(validators[kind](body)).toBe(true);
    return body;
  }

  it('rejects bad events one by one with a reason and stores the rest', async () => {
    const projectId = await freshProject();
    const ok = { timestamp: '2026-11-20T10:00:00Z', path: '/ok', userAgent: CHROME, ip: '203.0.113.1' };
    const batch = [
      ok,
      { ...ok, path: undefined },
      { ...ok, ip: 'not-an-ip' },
      { ...ok, timestamp: '2026-11-22T10:00:00Z' },
      { ...ok, path: '/images/logo.png' },
      { timestamp: ok.timestamp, path: '/x', userAgent: CHROME },
      'a string',
      { ...ok, timestamp: 'yesterday' },
      { ...ok, ip: '::ffff:203.0.113.2', path: '/ok/' },
    ];
    const res = await events(projectId, JSON.stringify(batch));
    expect(res.status).toBe(202);
    const body = (await res.json()) as { accepted: number; rejected: { index: number; error: string }[] };
    expect(body.accepted).toBe(2);
    expect(body.rejected.map((r) => r.index)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    const [path, ip, future, asset, anonymous, notObject, when] = body.rejected.map((r) => r.error);
    expect(path).toMatch(/^path: /);
    expect(ip).toMatch(/ip is not a valid IP address/);
    expect(future).toMatch(/future/);
    expect(asset).toMatch(/static asset/);
    expect(anonymous).toMatch(/one of ip or visitorId is required/);
    expect(notObject).toMatch(/expected object/);
    expect(when).toMatch(/^timestamp: /);
    expect((await exported(projectId)).visitors).toEqual([{ path: '/ok', human: 2, ai: 0, total: 2 }]);
  });

  // A raw path of 1,000 varied CJK characters is 3,000 bytes: past what a PostgreSQL index entry holds, so storing it
  // failed the whole batch. It is refused on its own, with a reason, and the batch's other events are stored.
  it('refuses a path over 1,024 UTF-8 bytes on its own and stores the rest of the batch', async () => {
    const projectId = await freshProject();
    const varied = Array.from({ length: 1000 }, (_, i) => String.fromCodePoint(0x4e00 + ((i * 7919) % 20000))).join('');
    const ok = { timestamp: '2026-11-20T10:00:00Z', userAgent: CHROME, ip: '203.0.113.7' };
    const res = await events(
      projectId,
      JSON.stringify([
        { ...ok, path: `/${varied}` },
        { ...ok, path: `/${varied.slice(0, 300)}` },
        { ...ok, path: '/short' },
      ]),
    );
    expect(res.status).toBe(202);
    const body = (await res.json()) as { accepted: number; rejected: { index: number; error: string }[] };
    expect(body).toMatchObject({ accepted: 2, rejected: [{ index: 0, error: expect.stringMatching(/not a page/) }] });
    expect((await exported(projectId)).visitors.map((r) => r.path).sort()).toEqual(
      [`/${varied.slice(0, 300)}`, '/short'].sort(),
    );
  });

  it('refuses a body that is not a JSON array of at most 10,000 events', async () => {
    const projectId = await freshProject();
    for (const [body, status, type] of [
      ['{"events": []}', 400, 'application/json'],
      ['[{"timestamp"', 400, 'application/json'],
      ['[]', 415, 'text/plain'],
      [JSON.stringify(Array.from({ length: 10_001 }, () => ({}))), 400, 'application/json'],
    ] as const) {
      const res = await events(projectId, body, type);
      expect(res.status).toBe(status);
      expect(validators.error(await res.json())).toBe(true);
    }
  });

  it('is idempotent per event id', async () => {
    const projectId = await freshProject();
    const e = { id: 'evt-1', timestamp: '2026-11-20T10:00:00Z', path: '/once', userAgent: CHROME, ip: '203.0.113.1' };
    expect(await (await events(projectId, JSON.stringify([e, e]))).json()).toEqual({
      accepted: 2,
      duplicates: 1,
      rejected: [],
    });
    expect(await (await events(projectId, JSON.stringify([e, { ...e, id: 'evt-2' }]))).json()).toEqual({
      accepted: 2,
      duplicates: 1,
      rejected: [],
    });
    expect((await exported(projectId, 'views')).totals).toEqual({ human: 2, ai: 0, total: 2 });
  });

  it('imports nginx/Apache combined logs, counting only successful GETs of pages, and reports why lines were skipped', async () => {
    const projectId = await freshProject();
    const file = fs.readFileSync(path.join(FIXTURES, 'access-combined.txt'));
    const res = await logs(projectId, file, 'text/plain');
    expect(res.status).toBe(202);
    const summary = (await res.json()) as Record<string, unknown>;
    expect(summary).toMatchObject({ format: 'combined', lines: 14, accepted: 7, duplicates: 0 });
    expect(summary.skipped).toEqual({
      'not a page: a static asset or not a path': 2,
      'method POST': 1,
      'status 404': 1,
      'malformed: not a combined log line': 1,
      'malformed: unreadable time "32/Foo/2026:13:00:00 +0000"': 1,
      'empty line': 1,
    });
    expect(summary.errors).toEqual([
      { line: 10, error: 'not a combined log line' },
      { line: 11, error: 'unreadable time "32/Foo/2026:13:00:00 +0000"' },
    ]);
    const expected = {
      totals: { human: 3, ai: 2, total: 5 },
      visitors: [
        { path: '/quickstart', human: 2, ai: 0, total: 2 },
        { path: '/', human: 1, ai: 0, total: 1 },
        { path: '/api-reference/intro', human: 0, ai: 1, total: 1 },
        { path: '/llms.txt', human: 0, ai: 1, total: 1 },
      ],
      hasMore: false,
    };
    expect(await exported(projectId)).toEqual(expected);
    // importing the same file again stores nothing twice
    const again = (await (await logs(projectId, file, 'text/plain')).json()) as Record<string, unknown>;
    expect(again).toMatchObject({ accepted: 7, duplicates: 7 });
    expect(await exported(projectId)).toEqual(expected);
    expect((await exported(projectId, 'views')).totals).toEqual({ human: 4, ai: 2, total: 6 });
  });

  it('imports Cloudflare Logpush http_requests NDJSON with any timestamp format', async () => {
    const projectId = await freshProject();
    const res = await logs(
      projectId,
      fs.readFileSync(path.join(FIXTURES, 'cloudflare.ndjson')),
      'application/x-ndjson',
    );
    const summary = (await res.json()) as Record<string, unknown>;
    expect(summary).toMatchObject({ format: 'cloudflare', lines: 7, accepted: 3 });
    expect(summary.skipped).toEqual({
      'status 500': 1,
      'not a page: a static asset or not a path': 1,
      'malformed: not valid JSON': 1,
      'malformed: not a JSON object': 1,
    });
    expect((await exported(projectId)).visitors).toEqual([{ path: '/guides/auth', human: 1, ai: 2, total: 3 }]);
  });

  it('imports Vercel log-drain NDJSON, skipping records that are not page requests', async () => {
    const projectId = await freshProject();
    const res = await logs(projectId, fs.readFileSync(path.join(FIXTURES, 'vercel.ndjson')), 'application/x-ndjson');
    const summary = (await res.json()) as Record<string, unknown>;
    expect(summary).toMatchObject({ format: 'vercel', lines: 6, accepted: 2 });
    expect(summary.skipped).toEqual({
      'not a request (no proxy record)': 1,
      'method HEAD': 1,
      'status -1': 1,
      'malformed: not valid JSON': 1,
    });
    expect((await exported(projectId)).visitors).toEqual([{ path: '/changelog', human: 1, ai: 0, total: 1 }]);
  });

  it('takes the format from the query when named, and refuses unknown formats and content types', async () => {
    const projectId = await freshProject();
    const cloudflare = fs.readFileSync(path.join(FIXTURES, 'cloudflare.ndjson'));
    const named = (await (await logs(projectId, cloudflare, 'application/x-ndjson', 'vercel')).json()) as Record<
      string,
      unknown
    >;
    expect(named).toMatchObject({ format: 'vercel', accepted: 0 });
    expect((named.skipped as Record<string, number>)['not a request (no proxy record)']).toBe(5);
    const bad = await logs(projectId, cloudflare, 'application/x-ndjson', 'syslog');
    expect(bad.status).toBe(400);
    expect(validators.error(await bad.json())).toBe(true);
    expect((await logs(projectId, cloudflare, 'application/json')).status).toBe(415);
  });

  it('never stores a raw IP address', async () => {
    const projectId = await freshProject();
    await logs(projectId, fs.readFileSync(path.join(FIXTURES, 'access-combined.txt')), 'text/plain');
    await events(
      projectId,
      JSON.stringify([{ timestamp: '2026-11-20T10:00:00Z', path: '/p', userAgent: CHROME, ip: '198.51.100.77' }]),
    );
    const dump = JSON.stringify(
      [
        await app.ctx.db.$queryRawUnsafe('SELECT * FROM "AnalyticsEvent"'),
        await app.ctx.db.$queryRawUnsafe('SELECT * FROM "AnalyticsVisitor"'),
        await app.ctx.db.$queryRawUnsafe('SELECT * FROM "AnalyticsEventKey"'),
        await app.ctx.db.$queryRawUnsafe('SELECT * FROM "AnalyticsPage"'),
      ],
      (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v),
    );
    expect(dump).toContain('/quickstart');
    for (const ip of ['203.0.113.5', '198.51.100.7', '20.171.207.1', '66.249.66.1', '198.51.100.77'])
      expect(dump).not.toContain(ip);
  });
});
