import { analyticsRoutes } from '../../src/http/routes/analytics.js';
import { analyticsFeedbackRoutes } from '../../src/http/routes/analytics-feedback.js';
import { FEEDBACK_PER_VISITOR_HOUR } from '../../src/analytics/feedback/reader-signals.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { PROVIDERS } from '../support/databases.js';
import { compatibleValidators } from '../support/compatible-schemas.js';

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX = 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const v = compatibleValidators();
const HOUR = 3_600_000;

interface FeedbackEntry { id: string; path: string; comment: string | null; createdAt: string; source: string; status: string; helpful?: boolean | null; code?: string }
interface FeedbackPage { feedback: FeedbackEntry[]; nextCursor: string | null; hasMore: boolean }
interface ByPage { feedback: { path: string; thumbsUp: number; thumbsDown: number; code: number; total: number }[]; hasMore: boolean; nextCursor: string | null }
interface Searches { searches: { searchQuery: string; hits: number; ctr: number; topClickedPage: string | null; lastSearchedAt: string }[]; totalSearches: number; nextCursor: string | null }

describe.each(PROVIDERS)('feedback and searches on %s', (provider) => {
  let app: TestApp;
  let projectId: string;
  let read: string;
  let write: string;

  beforeAll(async () => {
    app = await startTestApp({ provider, routes: ({ analytics }) => [analyticsRoutes({ analytics }), analyticsFeedbackRoutes({ analytics })] });
  });
  afterAll(async () => {
    await app.close();
  });
  beforeEach(async () => {
    projectId = (await app.project({ hostnames: ['docs.example.com'] })).id;
    read = await app.key(projectId, 'read');
    write = await app.key(projectId, 'write');
  });

  const get = async <T>(path: string, key = read) => {
    const res = await fetch(`${app.url}/v1/analytics/${projectId}${path}`, { headers: { authorization: `Bearer ${key}` } });
    return { status: res.status, body: (await res.json()) as T };
  };
  const post = async (path: string, body: unknown, key = write) => {
    const res = await fetch(`${app.url}/v1/analytics/${projectId}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as { accepted: number; duplicates: number; rejected: { index: number; error: string }[] } };
  };
  const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
  const browser = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${app.url}${path}`, { method: 'POST', headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': CHROME, ...headers }, body: JSON.stringify(body) });

  it('stores server-side feedback, rejects bad items by index, stores an id once, and lists it in the compatible shape', async () => {
    const items = [
      { id: 'a', timestamp: ago(3 * HOUR), path: 'https://docs.example.com/guide?x=1', helpful: false, comment: '<script>alert(1)</script> & more', ip: '198.51.100.1', userAgent: CHROME },
      { timestamp: ago(2 * HOUR), path: '/guide', helpful: true },
      { timestamp: ago(HOUR), path: '/api', source: 'code_snippet', code: 'curl -X POST', filename: 'x.sh', lang: 'bash', comment: 'fails' },
      { path: '/guide', source: 'agent', comment: 'The example is outdated', visitorId: 'agent-1' },
      { path: '/guide' }, // thumbs vote without a vote
      { path: '/x', helpful: true, comment: 'y'.repeat(2001) },
      { path: '/x', helpful: true, timestamp: new Date(Date.now() + HOUR).toISOString() },
      { path: '/x', helpful: true, ip: 'not-an-ip' },
      { path: '/logo.png', helpful: true },
      { path: '/x', source: 'code_snippet' },
    ];
    const first = await post('/feedback', items);
    expect(first.status).toBe(202);
    expect(first.body.accepted).toBe(4);
    expect(first.body.rejected.map((r) => r.index)).toEqual([4, 5, 6, 7, 8, 9]);
    expect(first.body.rejected[1].error).toMatch(/at most 2000 characters/);
    const again = await post('/feedback', [items[0]]);
    expect(again.body).toEqual({ accepted: 1, duplicates: 1, rejected: [] });

    const { status, body } = await get<FeedbackPage>('/feedback');
    expect(status).toBe(200);
    expect(v.feedback(body)).toBe(true);
    expect(body.hasMore).toBe(false);
    expect(body.nextCursor).toBeNull();
    expect(body.feedback.map((f) => [f.path, f.source, f.helpful ?? null])).toEqual([
      ['/guide', 'agent', null],
      ['/api', 'code_snippet', null],
      ['/guide', 'thumbs_only', true],
      ['/guide', 'contextual', false],
    ]);
    // stored as text, returned as text: escaping is the displayer's job
    expect(body.feedback[3].comment).toBe('<script>alert(1)</script> & more');
    expect(body.feedback[1]).toMatchObject({ code: 'curl -X POST', filename: 'x.sh', lang: 'bash', status: 'pending' });

    const byPage = await get<ByPage>('/feedback/by-page');
    expect(v.feedbackByPage(byPage.body)).toBe(true);
    expect(byPage.body.feedback).toEqual([
      { path: '/guide', thumbsUp: 1, thumbsDown: 1, code: 0, total: 3 },
      { path: '/api', thumbsUp: 0, thumbsDown: 0, code: 1, total: 1 },
    ]);
    expect((await get<FeedbackPage>('/feedback?source=code_snippet')).body.feedback.map((f) => f.path)).toEqual(['/api']);
    expect((await get<FeedbackPage>('/feedback?status=pending,resolved')).body.feedback).toHaveLength(4);
    expect((await get<FeedbackPage>('/feedback?status=resolved')).body.feedback).toHaveLength(0);
    expect((await get<FeedbackPage>(`/feedback?dateFrom=${encodeURIComponent(ago(2.5 * HOUR))}`)).body.feedback).toHaveLength(3);
  });

  it('moves feedback through review statuses, which the status filter reads', async () => {
    await post('/feedback', [{ path: '/guide', helpful: false, comment: 'Wrong port' }, { path: '/api', helpful: true }]);
    const [newest, oldest] = (await get<FeedbackPage>('/feedback')).body.feedback;
    const patch = (id: string, body: unknown, key = write) =>
      fetch(`${app.url}/v1/analytics/${projectId}/feedback/${id}`, { method: 'PATCH', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const res = await patch(oldest.id, { status: 'resolved' });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: oldest.id, status: 'resolved', comment: 'Wrong port' });
    expect((await get<FeedbackPage>('/feedback?status=resolved')).body.feedback.map((f) => f.id)).toEqual([oldest.id]);
    expect((await get<FeedbackPage>('/feedback?status=pending')).body.feedback.map((f) => f.id)).toEqual([newest.id]);
    expect((await get<ByPage>('/feedback/by-page?status=in_progress,dismissed')).body.feedback).toEqual([]);
    expect((await patch(oldest.id, { status: 'done' })).status).toBe(400);
    expect((await patch(oldest.id, { status: 'resolved', extra: 1 })).status).toBe(400);
    expect((await patch(oldest.id, { status: 'dismissed' }, read)).status).toBe(403);
    for (const id of ['999999', '0', 'abc', '99999999999999999999', '2147483648']) expect([id, (await patch(id, { status: 'resolved' })).status]).toEqual([id, 404]);
    // another project's entry is not reachable through this one
    const other = await app.project();
    const otherWrite = await app.key(other.id, 'write');
    const foreign = await fetch(`${app.url}/v1/analytics/${other.id}/feedback/${newest.id}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${otherWrite}`, 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'dismissed' }),
    });
    expect(foreign.status).toBe(404);
    expect((await get<FeedbackPage>('/feedback?status=dismissed')).body.feedback).toEqual([]);
  });

  it('keeps no raw address', async () => {
    await post('/feedback', [{ path: '/guide', helpful: true, ip: '203.0.113.77', userAgent: CHROME }]);
    await post('/searches', [{ query: 'tokens', ip: '203.0.113.77' }]);
    for (const table of ['AnalyticsFeedback', 'AnalyticsSearch']) {
      const rows = await app.ctx.db.$queryRawUnsafe<Record<string, unknown>[]>(`SELECT * FROM "${table}"`);
      expect(rows.length).toBeGreaterThan(0);
      expect(JSON.stringify(rows, (_k, value: unknown) => (typeof value === 'bigint' ? String(value) : value))).not.toContain('203.0.113.77');
    }
  });

  it('answers the same JSON errors and auth as the visitors export', async () => {
    for (const path of ['/feedback', '/feedback/by-page', '/searches']) {
      const cases = ['?dateFrom=2026-02-31', '?dateFrom=2026-01-02&dateTo=2026-01-01', '?limit=0', '?limit=101', '?limit=x'];
      for (const query of cases) {
        const res = await get<{ error: string; details: { message: string }[] }>(`${path}${query}`);
        expect([path, query, res.status]).toEqual([path, query, 400]);
        expect(v.error(res.body)).toBe(true);
      }
      const anonymous = await fetch(`${app.url}/v1/analytics/${projectId}${path}`);
      expect(anonymous.status).toBe(401);
    }
    expect((await get('/feedback?source=email')).status).toBe(400);
    expect((await get('/feedback?status=pending,open')).status).toBe(400);
    expect((await post('/feedback', [], read)).status).toBe(403);
    expect((await post('/searches', { query: 'x' })).status).toBe(400);
    expect((await post('/searches', new Array(1001).fill({ query: 'x' }))).status).toBe(400);
  });

  it('limits feedback per visitor hash and hour', async () => {
    const one = Array.from({ length: FEEDBACK_PER_VISITOR_HOUR + 2 }, () => ({ path: '/guide', helpful: false, comment: 'spam', ip: '198.51.100.5', userAgent: CHROME }));
    const result = await post('/feedback', one);
    expect(result.body.accepted).toBe(FEEDBACK_PER_VISITOR_HOUR);
    expect(result.body.rejected).toEqual([FEEDBACK_PER_VISITOR_HOUR, FEEDBACK_PER_VISITOR_HOUR + 1].map((index) => ({ index, error: expect.stringMatching(/rate limited/) })));
    // another visitor (same address, other browser) is not affected
    expect((await post('/feedback', [{ path: '/guide', helpful: true, ip: '198.51.100.5', userAgent: FIREFOX }])).body.accepted).toBe(1);
  });

  it('counts searches by normalised term with click-through and the most clicked page', async () => {
    const searches = [
      ...Array.from({ length: 4 }, (_, i) => ({ query: i % 2 ? '  Rate   LIMITS ' : 'rate limits', timestamp: ago((i + 1) * HOUR) })),
      { query: 'rate limits', clickedPath: 'https://docs.example.com/limits#top' },
      { query: 'rate limits', clickedPath: '/limits' },
      { query: 'rate limits', clickedPath: '/errors' },
      { query: 'auth', timestamp: ago(30 * 60_000) },
      { query: 'auth', clickedPath: '/auth' },
      { query: 'auth', clickedPath: '/auth' },
      { query: 'webhooks', timestamp: ago(40 * 86_400_000) },
      { query: '   ' },
      { query: 'x', clickedPath: 'not a path' },
    ];
    const result = await post('/searches', searches);
    expect(result.body.accepted).toBe(11);
    expect(result.body.rejected.map((r) => r.index)).toEqual([11, 12]);
    const { status, body } = await get<Searches>('/searches');
    expect(status).toBe(200);
    expect(v.searches(body)).toBe(true);
    expect(body.totalSearches).toBe(5);
    expect(body.nextCursor).toBeNull();
    expect(body.searches.map(({ lastSearchedAt: _, ...s }) => s)).toEqual([
      { searchQuery: 'rate limits', hits: 4, ctr: 0.75, topClickedPage: '/limits' },
      { searchQuery: 'auth', hits: 1, ctr: 1, topClickedPage: '/auth' },
    ]);
    expect(body.searches[0].lastSearchedAt).toBe((searches[0] as { timestamp: string }).timestamp);
    const old = await get<Searches>(`/searches?dateFrom=${ago(50 * 86_400_000).slice(0, 10)}`);
    expect(old.body.totalSearches).toBe(6);
  });

  it('pages feedback with cursors: stable order, no duplicates or gaps, new rows left for a fresh listing', async () => {
    const base = Date.now() - 10 * HOUR;
    // runs of equal timestamps, so the tie-break on id is exercised across page boundaries
    const items = Array.from({ length: 23 }, (_, i) => ({ id: `f${i}`, timestamp: new Date(base + Math.floor(i / 4) * 60_000).toISOString(), path: `/p${i % 5}`, helpful: i % 2 === 0 }));
    expect((await post('/feedback', items)).body.accepted).toBe(23);
    const all = (await get<FeedbackPage>('/feedback?limit=100')).body.feedback.map((f) => f.id);
    expect(all).toHaveLength(23);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: { status: number; body: FeedbackPage } = await get<FeedbackPage>(`/feedback?limit=5${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(res.status).toBe(200);
      expect(v.feedback(res.body)).toBe(true);
      expect(res.body.hasMore).toBe(res.body.nextCursor !== null);
      seen.push(...res.body.feedback.map((f) => f.id));
      cursor = res.body.nextCursor;
      // rows arriving mid-walk, newer and older than the position, are not mixed into this listing
      if (pages++ === 1) await post('/feedback', [{ timestamp: new Date(base).toISOString(), path: '/late', helpful: true }, { path: '/new', helpful: false }]);
    } while (cursor);
    expect(pages).toBe(5);
    expect(seen).toEqual(all);
    expect(new Set(seen).size).toBe(23);
    expect((await get<FeedbackPage>('/feedback?limit=100')).body.feedback).toHaveLength(25);
  });

  it('pages feedback by page and searches with cursors, each page in order and every row once', async () => {
    const feedback = Array.from({ length: 30 }, (_, i) => ({ path: `/page-${i % 7}`, helpful: i % 3 === 0, timestamp: ago(HOUR + i) }));
    await post('/feedback', feedback);
    const searches = Array.from({ length: 40 }, (_, i) => ({ query: `term ${i % 9}`, timestamp: ago(HOUR + i) }));
    await post('/searches', searches);

    const walk = async <T>(path: string, rowsOf: (body: T) => unknown[], next: (body: T) => string | null, validate: (body: T) => boolean) => {
      const rows: unknown[] = [];
      let cursor: string | null = null;
      do {
        const res: { status: number; body: T } = await get<T>(`${path}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        expect(res.status).toBe(200);
        expect(validate(res.body)).toBe(true);
        rows.push(...rowsOf(res.body));
        cursor = next(res.body);
        // a new search between pages must not shift the order
        await post('/searches', [{ query: 'term 8' }]);
      } while (cursor);
      return rows;
    };
    const pages = await walk<ByPage>('/feedback/by-page?limit=3', (b) => b.feedback, (b) => b.nextCursor, v.feedbackByPage);
    expect(pages).toEqual((await get<ByPage>('/feedback/by-page?limit=100')).body.feedback);
    expect(pages).toHaveLength(7);

    const first = await get<Searches>('/searches?limit=100');
    const terms = await walk<Searches>('/searches?limit=2', (b) => b.searches, (b) => b.nextCursor, v.searches);
    expect(terms.map((t) => (t as { searchQuery: string }).searchQuery)).toEqual(first.body.searches.map((t) => t.searchQuery));
    expect(terms.map((t) => (t as { hits: number }).hits)).toEqual(first.body.searches.map((t) => t.hits));
    expect(terms).toHaveLength(9);
  });

  it('refuses altered, forged and misapplied cursors with 400, never 500', async () => {
    await post('/feedback', Array.from({ length: 4 }, (_, i) => ({ path: `/p${i}`, helpful: true })));
    await post('/searches', Array.from({ length: 4 }, (_, i) => ({ query: `q${i}` })));
    const cursor = (await get<FeedbackPage>('/feedback?limit=1')).body.nextCursor!;
    const searchCursor = (await get<Searches>('/searches?limit=1')).body.nextCursor!;
    expect(cursor).toMatch(/^[\w-]+\.[\w-]+$/);
    const [body, signature] = cursor.split('.');
    const state = JSON.parse(Buffer.from(body, 'base64url').toString()) as { snapshot: number };
    const edited = Buffer.from(JSON.stringify({ ...state, snapshot: state.snapshot + 1000 })).toString('base64url');
    const other = await app.project({ hostnames: ['other.example.com'] });
    const otherKey = await app.key(other.id, 'read');
    const bad = [
      `${edited}.${signature}`,
      `${body}.${signature.slice(0, -2)}AA`,
      `${body}x.${signature}`,
      `${body}.${signature}.x`,
      body,
      '.',
      'a.b',
      '%00',
      'x'.repeat(4001),
      `${Buffer.from('not json').toString('base64url')}.${signature}`,
    ];
    for (const c of bad) {
      const res = await get<{ error: string; details: { message: string }[] }>(`/feedback?cursor=${encodeURIComponent(c)}`);
      expect([c.slice(0, 40), res.status]).toEqual([c.slice(0, 40), 400]);
      expect(v.error(res.body)).toBe(true);
    }
    const misapplied = [
      `/feedback/by-page?cursor=${encodeURIComponent(cursor)}`,
      `/searches?cursor=${encodeURIComponent(cursor)}`,
      `/feedback?cursor=${encodeURIComponent(searchCursor)}`,
      `/feedback?source=agent&cursor=${encodeURIComponent(cursor)}`,
      `/feedback?dateFrom=2026-01-01&cursor=${encodeURIComponent(cursor)}`,
    ];
    for (const path of misapplied) {
      const res = await get<{ error: string; details: { message: string }[] }>(path);
      expect([path, res.status]).toEqual([path, 400]);
      expect(res.body.details[0].message).toMatch(/^cursor: /);
    }
    const foreign = await fetch(`${app.url}/v1/analytics/${other.id}/feedback?cursor=${encodeURIComponent(cursor)}`, { headers: { authorization: `Bearer ${otherKey}` } });
    expect(foreign.status).toBe(400);
    // the same cursor with the same (explicit) parameters is fine
    expect((await get<FeedbackPage>(`/feedback?limit=1&cursor=${encodeURIComponent(cursor)}`)).status).toBe(200);
  });

  it('takes browser feedback only from the project site and from people; a comment completes its own vote', async () => {
    const url = 'https://docs.example.com/guide';
    const submission = 'sub_0123456789';
    expect((await browser('/api/feedback', { projectId, url, helpful: false, submission })).status).toBe(202);
    expect((await browser('/api/feedback', { projectId, url, helpful: false, comment: 'Missing the <b>token</b> step', submission })).status).toBe(202);
    // another visitor replaying the submission id gets a row of their own, not the first visitor's
    await browser('/api/feedback', { projectId, url, helpful: true, comment: 'overwritten?', submission }, { 'user-agent': FIREFOX });
    const dropped = [
      browser('/api/feedback', { projectId, url: 'https://evil.example.net/guide', helpful: true }),
      browser('/api/feedback', { projectId, url, helpful: true }, { origin: 'https://evil.example.net' }),
      browser('/api/feedback', { projectId, url, helpful: true }, { 'user-agent': 'Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)' }),
      browser('/api/feedback', { projectId: 'prj_unknownunknownunkn', url, helpful: true }),
    ];
    for (const res of await Promise.all(dropped)) expect(res.status).toBe(202);
    for (const body of [{ projectId, url, helpful: 'yes' }, { projectId, url: 'javascript:alert(1)', helpful: true }, { projectId, url, helpful: true, submission: 'short' }]) {
      expect((await browser('/api/feedback', body)).status).toBe(400);
    }
    const { body } = await get<FeedbackPage>('/feedback');
    expect(body.feedback.map((f) => [f.source, f.helpful, f.comment])).toEqual([
      ['contextual', true, 'overwritten?'],
      ['contextual', false, 'Missing the <b>token</b> step'],
    ]);
    expect((await get<ByPage>('/feedback/by-page')).body.feedback).toEqual([{ path: '/guide', thumbsUp: 1, thumbsDown: 1, code: 0, total: 2 }]);
    // the socket address (loopback here) was hashed, not kept
    const rows = await app.ctx.db.$queryRawUnsafe<Record<string, unknown>[]>('SELECT * FROM "AnalyticsFeedback"');
    expect(JSON.stringify(rows, (_k, value: unknown) => (typeof value === 'bigint' ? String(value) : value))).not.toMatch(/127\.0\.0\.1|::1/);
  });

  it('takes browser searches and result clicks', async () => {
    const url = 'https://docs.example.com/search?q=x';
    await browser('/api/search', { projectId, url, query: 'Webhooks' }, { origin: 'https://docs.example.com' });
    await browser('/api/search', { projectId, url, query: 'webhooks', clickedPath: '../guides/webhooks?ref=search' });
    await browser('/api/search', { projectId, url: 'https://evil.example.net/', query: 'webhooks' });
    const { body } = await get<Searches>('/searches');
    expect(body.searches.map(({ lastSearchedAt: _, ...s }) => s)).toEqual([{ searchQuery: 'webhooks', hits: 1, ctr: 1, topClickedPage: '/guides/webhooks' }]);
    expect((await fetch(`${app.url}/api/search`, { method: 'OPTIONS' })).status).toBe(204);
  });
});
