import { analyticsRoutes } from '../../../../src/http/routes/analytics.js';
import { startTestApp, type TestApp } from '../../../support/test-app.js';
import { PROVIDERS } from '../../../support/databases.js';
import { compatibleValidators } from '../../../support/compatible-schemas.js';

const NOW = new Date('2026-11-21T12:00:00.000Z');
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX = 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const SAFARI =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15';
const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';
const CHATGPT_USER =
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot';
const CLAUDEBOT =
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

type Counts = { human: number; ai: number; total: number };
type Row = Counts & { path: string };
const validators = compatibleValidators();

/**
 * Hand-computed fixture (days are November 2026, UTC):
 *   A = 1.1.1.1 + Chrome:   /a on 18th, /a and /b on 19th (the /b view at 10:00)
 *   B = 2.2.2.2 + Firefox:  /a twice on 18th
 *   C = 1.1.1.1 + Safari:   /b on 20th (same address as A, another browser: another visitor)
 *   GPTBot and ChatGPT-User from 3.3.3.3: /a on 19th (two AI visitors: the agent name is part of the identity)
 *   u1 (given visitorId):   /c on 20th as Chrome and as ClaudeBot (one visitor seen as both classes)
 *   Googlebot: /a on 19th (a bot: counted in neither class)
 */
const FIXTURE = [
  { timestamp: '2026-11-18T08:00:00.000Z', path: '/a', userAgent: CHROME, ip: '1.1.1.1' },
  { timestamp: '2026-11-19T09:00:00.000Z', path: '/a', userAgent: CHROME, ip: '1.1.1.1' },
  { timestamp: '2026-11-19T10:00:00.000Z', path: '/b', userAgent: CHROME, ip: '1.1.1.1' },
  { timestamp: '2026-11-18T09:00:00.000Z', path: '/a', userAgent: FIREFOX, ip: '2.2.2.2' },
  { timestamp: '2026-11-18T23:59:59.999Z', path: '/a/', userAgent: FIREFOX, ip: '2.2.2.2' },
  { timestamp: '2026-11-20T00:00:00.000Z', path: '/b', userAgent: SAFARI, ip: '1.1.1.1' },
  { timestamp: '2026-11-19T11:00:00.000Z', path: '/a', userAgent: GPTBOT, ip: '3.3.3.3' },
  {
    timestamp: '2026-11-19T11:00:00.000Z',
    path: 'https://docs.example.com/a?utm=x',
    userAgent: CHATGPT_USER,
    ip: '3.3.3.3',
  },
  { timestamp: '2026-11-20T10:00:00.000Z', path: '/c', userAgent: CHROME, visitorId: 'u1' },
  { timestamp: '2026-11-20T11:00:00.000Z', path: '/c', userAgent: CLAUDEBOT, visitorId: 'u1' },
  { timestamp: '2026-11-19T12:00:00.000Z', path: '/a', userAgent: GOOGLEBOT, ip: '4.4.4.4' },
];

describe.each(PROVIDERS)('analytics export on %s', (provider) => {
  let app: TestApp;
  let projectId: string;
  let readKey: string;
  let writeKey: string;

  beforeAll(async () => {
    app = await startTestApp({
      provider,
      routes: ({ analytics }) => [analyticsRoutes({ analytics })],
      clock: () => NOW,
    });
    projectId = (await app.project()).id;
    readKey = await app.key(projectId, 'read');
    writeKey = await app.key(projectId, 'write');
    const res = await post(FIXTURE);
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ accepted: FIXTURE.length, duplicates: 0, rejected: [] });
  });
  afterAll(async () => {
    await app.close();
  });

  const post = (events: unknown, key = writeKey) =>
    fetch(`${app.url}/v1/analytics/${projectId}/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(events),
    });

  async function get(kind: 'visitors' | 'views', query: Record<string, string | number> = {}, id = projectId) {
    const qs = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]));
    const res = await fetch(`${app.url}/v1/analytics/${id}/${kind}?${qs}`, {
      headers: { authorization: `Bearer ${readKey}` },
    });
    const body = (await res.json()) as {
      totals: Counts;
      visitors: Row[];
      views: Row[];
      hasMore: boolean;
      error?: string;
    };
    return { status: res.status, body };
  }

  it('counts exact distinct visitors over several days, pages and both classes', async () => {
    const { status, body } = await get('visitors', { dateFrom: '2026-11-18', dateTo: '2026-11-21' });
    expect(status).toBe(200);
    expect(validators.visitors(body)).toBe(true);
    expect(body).toEqual({
      totals: { human: 4, ai: 3, total: 6 },
      visitors: [
        { path: '/a', human: 2, ai: 2, total: 4 },
        { path: '/b', human: 2, ai: 0, total: 2 },
        { path: '/c', human: 1, ai: 1, total: 1 },
      ],
      hasMore: false,
    });
  });

  it('counts page views per class, bots excluded', async () => {
    const { status, body } = await get('views', { dateFrom: '2026-11-18', dateTo: '2026-11-21' });
    expect(status).toBe(200);
    expect(validators.views(body)).toBe(true);
    expect(body).toEqual({
      totals: { human: 7, ai: 3, total: 10 },
      views: [
        { path: '/a', human: 4, ai: 2, total: 6 },
        { path: '/b', human: 2, ai: 0, total: 2 },
        { path: '/c', human: 1, ai: 1, total: 2 },
      ],
      hasMore: false,
    });
  });

  it('treats dateFrom as inclusive and dateTo as exclusive, by day and by instant', async () => {
    expect((await get('visitors', { dateFrom: '2026-11-19', dateTo: '2026-11-20' })).body).toEqual({
      totals: { human: 1, ai: 2, total: 3 },
      visitors: [
        { path: '/a', human: 1, ai: 2, total: 3 },
        { path: '/b', human: 1, ai: 0, total: 1 },
      ],
      hasMore: false,
    });
    // the instant of A's /b view, inclusive at the start and exclusive at the end
    const at = '2026-11-19T10:00:00.000Z';
    expect((await get('visitors', { dateFrom: at, dateTo: '2026-11-19T10:00:00.001Z' })).body.visitors).toEqual([
      { path: '/b', human: 1, ai: 0, total: 1 },
    ]);
    expect((await get('visitors', { dateFrom: '2026-11-19T08:30:00Z', dateTo: at })).body.visitors).toEqual([
      { path: '/a', human: 1, ai: 0, total: 1 },
    ]);
    // last millisecond of the 18th and first of the 20th, around a whole day (19th): edges and days combined
    expect(
      (await get('visitors', { dateFrom: '2026-11-18T23:59:59.999Z', dateTo: '2026-11-20T00:00:00.001Z' })).body,
    ).toEqual({
      totals: { human: 3, ai: 2, total: 5 },
      visitors: [
        { path: '/a', human: 2, ai: 2, total: 4 },
        { path: '/b', human: 2, ai: 0, total: 2 },
      ],
      hasMore: false,
    });
    expect(
      (await get('views', { dateFrom: '2026-11-18T23:59:59.999Z', dateTo: '2026-11-20T00:00:00.001Z' })).body.totals,
    ).toEqual({ human: 4, ai: 2, total: 6 });
    // offsets other than Z are honoured: 01:00+02:00 is 23:00Z on the 18th
    expect(
      (await get('views', { dateFrom: '2026-11-19T01:00:00+02:00', dateTo: '2026-11-19T00:00:00.000Z' })).body.totals,
    ).toEqual({ human: 1, ai: 0, total: 1 });
  });

  it('defaults to the 30 days before now', async () => {
    const { body } = await get('visitors');
    expect(body.totals).toEqual({ human: 4, ai: 3, total: 6 });
    const empty = await get('visitors', { dateTo: '2026-11-18' });
    expect(empty.body).toEqual({ totals: { human: 0, ai: 0, total: 0 }, visitors: [], hasMore: false });
    expect(validators.visitors(empty.body)).toBe(true);
  });

  it('refuses bad parameters with 400 and details', async () => {
    const cases: Record<string, string | number>[] = [
      { dateFrom: 'yesterday' },
      { dateFrom: '2026-02-31' },
      { dateTo: '2026-11-21T10:00:00' },
      { dateFrom: '2026-11-20', dateTo: '2026-11-20' },
      { dateFrom: '2026-11-21', dateTo: '2026-11-20' },
      { limit: 0 },
      { limit: 251 },
      { limit: 1.5 },
      { limit: 'ten' },
      { offset: -1 },
      { offset: '1e3' },
    ];
    for (const query of cases) {
      for (const kind of ['visitors', 'views'] as const) {
        const { status, body } = await get(kind, query);
        expect({ query, status }).toEqual({ query, status: 400 });
        expect(validators.error(body)).toBe(true);
        expect((body as unknown as { details: { message: string }[] }).details.length).toBeGreaterThan(0);
      }
    }
    const { body } = await get('visitors', { limit: 0, offset: -1 });
    const messages = (body as unknown as { details: { message: string }[] }).details.map((d) => d.message).join(' | ');
    expect(messages).toMatch(/limit/);
    expect(messages).toMatch(/offset/);
  });

  it('scopes keys: 401 without a key, 403 for another project or a read key writing', async () => {
    const other = await app.project();
    const otherKey = await app.key(other.id, 'read');
    const res401 = await fetch(`${app.url}/v1/analytics/${projectId}/visitors`);
    expect(res401.status).toBe(401);
    expect(validators.error(await res401.json())).toBe(true);
    const res403 = await fetch(`${app.url}/v1/analytics/${projectId}/visitors`, {
      headers: { authorization: `Bearer ${otherKey}` },
    });
    expect(res403.status).toBe(403);
    expect((await post([], readKey)).status).toBe(403);
    // the other project sees none of this project's traffic
    const own = await fetch(`${app.url}/v1/analytics/${other.id}/visitors?dateFrom=2026-11-01`, {
      headers: { authorization: `Bearer ${otherKey}` },
    });
    expect(await own.json()).toEqual({ totals: { human: 0, ai: 0, total: 0 }, visitors: [], hasMore: false });
    const all = await app.key(null, 'read');
    const missing = await fetch(`${app.url}/v1/analytics/prj_doesnotexist/visitors`, {
      headers: { authorization: `Bearer ${all}` },
    });
    expect(missing.status).toBe(404);
  });
});

describe.each(PROVIDERS)('analytics paging on %s', (provider) => {
  let app: TestApp;
  let projectId: string;
  let key: string;
  beforeAll(async () => {
    app = await startTestApp({
      provider,
      routes: ({ analytics }) => [analyticsRoutes({ analytics })],
      clock: () => NOW,
    });
    projectId = (await app.project()).id;
    key = await app.key(projectId, 'write');
  });
  afterAll(async () => {
    await app.close();
  });

  it('walks every path exactly once, ordered by total descending then path', async () => {
    // page p{i} gets (i % 7) + 1 visitors, so many totals tie and the path decides
    const events = [];
    for (let i = 0; i < 53; i++) {
      for (let v = 0; v <= i % 7; v++)
        events.push({ timestamp: '2026-11-20T10:00:00Z', path: `/p${i}`, userAgent: CHROME, ip: `10.0.${i}.${v}` });
    }
    const res = await fetch(`${app.url}/v1/analytics/${projectId}/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(events),
    });
    expect(((await res.json()) as { accepted: number }).accepted).toBe(events.length);
    const expected = Array.from({ length: 53 }, (_, i) => ({ path: `/p${i}`, total: (i % 7) + 1 })).sort(
      (a, b) => b.total - a.total || (a.path < b.path ? -1 : 1),
    );
    const seen: { path: string; total: number }[] = [];
    let pages = 0;
    for (let offset = 0, hasMore = true; hasMore; offset += 10) {
      const page = await fetch(
        `${app.url}/v1/analytics/${projectId}/visitors?limit=10&offset=${offset}&dateFrom=2026-11-01`,
        {
          headers: { authorization: `Bearer ${key}` },
        },
      );
      const body = (await page.json()) as { visitors: Row[]; hasMore: boolean; totals: Counts };
      expect(body.totals.total).toBe(events.length);
      seen.push(...body.visitors.map((r) => ({ path: r.path, total: r.total })));
      hasMore = body.hasMore;
      pages++;
    }
    expect(pages).toBe(6);
    expect(seen).toEqual(expected);
    const beyond = await fetch(`${app.url}/v1/analytics/${projectId}/visitors?limit=10&offset=60&dateFrom=2026-11-01`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(await beyond.json()).toMatchObject({ visitors: [], hasMore: false });
  });
});
