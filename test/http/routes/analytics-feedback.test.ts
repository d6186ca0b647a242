import { analyticsRoutes } from '../../../src/http/routes/analytics.js';
import { analyticsFeedbackRoutes } from '../../../src/http/routes/analytics-feedback.js';
import { FEEDBACK_PER_VISITOR_HOUR } from '../../../src/analytics/signals/submit-feedback.js';
import { SEARCHES_PER_VISITOR_HOUR } from '../../../src/analytics/signals/submit-searches.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { PROVIDERS } from '../../support/databases.js';
import { compatibleValidators } from '../../support/compatible-schemas.js';

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX = 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const v = compatibleValidators();
const HOUR = 3_600_000;

interface FeedbackEntry {
  id: string;
  path: string;
  comment: string | null;
  createdAt: string;
  source: string;
  status: string;
  helpful?: boolean | null;
  code?: string;
}
interface FeedbackPage {
  feedback: FeedbackEntry[];
  nextCursor: string | null;
  hasMore: boolean;
}
interface ByPage {
  feedback: { path: string; thumbsUp: number; thumbsDown: number; code: number; total: number }[];
  hasMore: boolean;
  nextCursor: string | null;
}
interface Searches {
  searches: { searchQuery: string; hits: number; ctr: number; topClickedPage: string | null; lastSearchedAt: string }[];
  totalSearches: number;
  nextCursor: string | null;
}

/** each submission endpoint, its limit per visitor and hour, and its `i`th distinct item */
const LIMITED = [
  ['/feedback', FEEDBACK_PER_VISITOR_HOUR, (i: number) => ({ path: `/p${i}`, helpful: true })],
  ['/searches', SEARCHES_PER_VISITOR_HOUR, (i: number) => ({ query: `term ${i}` })],
] as const;

describe.each(PROVIDERS)('feedback and searches on %s', (provider) => {
  let app: TestApp;
  let projectId: string;
  let read: string;
  let write: string;

  beforeAll(async () => {
    app = await startTestApp({
      provider,
      routes: ({ analytics }) => [analyticsRoutes({ analytics }), analyticsFeedbackRoutes({ analytics })],
    });
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
    const res = await fetch(`${app.url}/v1/analytics/${projectId}${path}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    return { status: res.status, body: (await res.json()) as T };
  };
  const post = async (path: string, body: unknown, key = write) => {
    const res = await fetch(`${app.url}/v1/analytics/${projectId}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return {
      status: res.status,
      body: (await res.json()) as {
        accepted: number;
        duplicates: number;
        rejected: { index: number; error: string }[];
      },
    };
  };
  const patch = (id: string, body: unknown, key = write) =>
    fetch(`${app.url}/v1/analytics/${projectId}/feedback/${id}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
  const browser = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${app.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': CHROME, ...headers },
      body: JSON.stringify(body),
    });

  it('stores server-side feedback, rejects bad items by index, stores an id once, and lists it in the compatible shape', async () => {
    const items = [
      {
        id: 'a',
        timestamp: ago(3 * HOUR),
        path: 'https://docs.example.com/guide?x=1',
        helpful: false,
        comment: '<script>alert(1)</script> & more',
        ip: '198.51.100.1',
        userAgent: CHROME,
      },
      { timestamp: ago(2 * HOUR), path: '/guide', helpful: true },
      {
        timestamp: ago(HOUR),
        path: '/api',
        source: 'code_snippet',
        code: 'curl -X POST',
        filename: 'x.sh',
        lang: 'bash',
        comment: 'fails',
      },
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
    expect((await get<FeedbackPage>('/feedback?source=code_snippet')).body.feedback.map((f) => f.path)).toEqual([
      '/api',
    ]);
    expect((await get<FeedbackPage>('/feedback?status=pending,resolved')).body.feedback).toHaveLength(4);
    expect((await get<FeedbackPage>('/feedback?status=resolved')).body.feedback).toHaveLength(0);
    expect(
      (await get<FeedbackPage>(`/feedback?dateFrom=${encodeURIComponent(ago(2.5 * HOUR))}`)).body.feedback,
    ).toHaveLength(3);
  });

  it('refuses an item whose text no column can hold (NUL, unpaired surrogate) by index, storing the rest', async () => {
    const feedback = [
      { path: '/a', helpful: true, contact: 'me\u0000@example.com' },
      { id: 'n\u0000', path: '/a', helpful: true },
      { path: '/a', source: 'code_snippet', code: 'curl\u0000', comment: 'fails' },
      { path: '/a', source: 'code_snippet', code: 'curl', filename: 'x\u0000.sh' },
      { path: '/a', source: 'code_snippet', code: 'curl', lang: 'ba\u0000sh' },
      { path: '/a', helpful: true, contact: 'me\ud800' },
      { id: 'k\ud800', path: '/a', helpful: true },
      { path: '/a\ud800', helpful: true },
      { path: '/a\u0000', helpful: true },
      // free text is normalised instead: controls (NUL among them) removed, an unpaired surrogate made U+FFFD
      { id: 'kept', path: '/b', helpful: false, comment: 'Step\u0000 3 \ud83d\ude00 is missing\udc00' },
      { path: '/c', helpful: true },
    ];
    const result = await post('/feedback', feedback);
    expect(result.status).toBe(202);
    expect(result.body).toEqual({
      accepted: 2,
      duplicates: 0,
      rejected: [
        { index: 0, error: 'contact: must not contain a NUL character (U+0000)' },
        { index: 1, error: 'id: must not contain a NUL character (U+0000)' },
        { index: 2, error: 'code: must not contain a NUL character (U+0000)' },
        { index: 3, error: 'filename: must not contain a NUL character (U+0000)' },
        { index: 4, error: 'lang: must not contain a NUL character (U+0000)' },
        { index: 5, error: 'contact: must not contain an unpaired surrogate (not Unicode text)' },
        { index: 6, error: 'id: must not contain an unpaired surrogate (not Unicode text)' },
        { index: 7, error: 'path: is not a page path or URL' },
        { index: 8, error: 'path: is not a page path or URL' },
      ],
    });
    // a second id differing only in its unpaired surrogate is refused too, never taken for a duplicate
    expect((await post('/feedback', [{ id: 'k\udbff', path: '/a', helpful: true }])).body.rejected).toHaveLength(1);
    expect((await get<FeedbackPage>('/feedback')).body.feedback.map((f) => [f.path, f.comment])).toEqual([
      ['/c', null],
      ['/b', 'Step 3 \ud83d\ude00 is missing\ufffd'],
    ]);

    const searches = [
      { id: 's\u0000', query: 'tokens' },
      { id: 's\udfff', query: 'tokens' },
      { query: 'tokens', clickedPath: '/auth\u0000' },
      { query: 'rate\u0000limits\ud800' },
      { id: 'fine', query: 'auth' },
    ];
    const stored = await post('/searches', searches);
    expect(stored.status).toBe(202);
    expect(stored.body).toEqual({
      accepted: 2,
      duplicates: 0,
      rejected: [
        { index: 0, error: 'id: must not contain a NUL character (U+0000)' },
        { index: 1, error: 'id: must not contain an unpaired surrogate (not Unicode text)' },
        { index: 2, error: 'clickedPath: is not a page path or URL' },
      ],
    });
    const terms = (await get<Searches>('/searches')).body.searches;
    expect(terms.map((t) => [t.searchQuery, t.hits])).toEqual([
      ['auth', 1],
      ['rate limits\ufffd', 1],
    ]);
  });

  it('takes comment-only feedback without a vote (contextual, helpful null); a thumbs vote still needs one', async () => {
    const result = await post('/feedback', [
      { path: '/x', comment: 'Step 3 is missing' },
      { path: '/x', comment: 'Wrong port', helpful: null },
      { path: '/x', source: 'agent', comment: 'The example is outdated' },
      { path: '/x' },
      { path: '/x', helpful: null },
      { path: '/x', comment: ' \u0000 ' }, // nothing left once normalised: a thumbs vote without its vote
      { path: '/x', source: 'thumbs_only', comment: 'Step 3 is missing' },
    ]);
    expect(result.status).toBe(202);
    const thumbsWithoutVote = 'helpful: is required for a thumbs vote (feedback without a comment)';
    expect(result.body).toEqual({
      accepted: 3,
      duplicates: 0,
      rejected: [3, 4, 5, 6].map((index) => ({ index, error: thumbsWithoutVote })),
    });
    const { body } = await get<FeedbackPage>('/feedback');
    expect(v.feedback(body)).toBe(true);
    expect(body.feedback.map((f) => [f.source, f.helpful, f.comment])).toEqual([
      ['agent', null, 'The example is outdated'],
      ['contextual', null, 'Wrong port'],
      ['contextual', null, 'Step 3 is missing'],
    ]);
    const byPage = await get<ByPage>('/feedback/by-page');
    expect(v.feedbackByPage(byPage.body)).toBe(true);
    expect(byPage.body.feedback).toEqual([{ path: '/x', thumbsUp: 0, thumbsDown: 0, code: 0, total: 3 }]);
  });

  it('counts comment and query length in characters (code points), not UTF-16 units, after normalising', async () => {
    const emoji = (n: number) => '\ud83d\ude00'.repeat(n);
    const feedback = await post('/feedback', [
      { path: '/a', helpful: false, comment: emoji(1500) },
      { path: '/b', helpful: false, comment: `  ${emoji(2000)}\r\n\u0000 ` }, // 2,000 once normalised
      { path: '/c', helpful: false, comment: emoji(2001) },
      { path: '/d', helpful: false, comment: emoji(4001) }, // refused before normalising, in the same words
    ]);
    expect(feedback.body).toEqual({
      accepted: 2,
      duplicates: 0,
      rejected: [
        { index: 2, error: 'comment: may be at most 2000 characters' },
        { index: 3, error: 'comment: may be at most 2000 characters' },
      ],
    });
    const stored = (await get<FeedbackPage>('/feedback')).body.feedback;
    expect(stored.map((f) => [f.path, [...(f.comment ?? '')].length])).toEqual([
      ['/b', 2000],
      ['/a', 1500],
    ]);

    const searches = await post('/searches', [{ query: emoji(200) }, { query: emoji(201) }, { query: emoji(1001) }]);
    expect(searches.body).toEqual({
      accepted: 1,
      duplicates: 0,
      rejected: [
        { index: 1, error: 'query: may be at most 200 characters' },
        { index: 2, error: 'query: may be at most 200 characters' },
      ],
    });
    expect((await get<Searches>('/searches')).body.searches.map((t) => t.searchQuery)).toEqual([emoji(200)]);

    // the browser's comment is counted the same way
    const url = 'https://docs.example.com/e';
    expect((await browser('/api/feedback', { projectId, url, helpful: true, comment: emoji(1999) })).status).toBe(202);
    expect((await get<FeedbackPage>('/feedback')).body.feedback[0]).toMatchObject({ path: '/e', comment: emoji(1999) });
  });

  it('moves feedback through review statuses, which the status filter reads', async () => {
    await post('/feedback', [
      { path: '/guide', helpful: false, comment: 'Wrong port' },
      { path: '/api', helpful: true },
    ]);
    const [newest, oldest] = (await get<FeedbackPage>('/feedback')).body.feedback;
    const res = await patch(oldest.id, { status: 'resolved' });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: oldest.id, status: 'resolved', comment: 'Wrong port' });
    expect((await get<FeedbackPage>('/feedback?status=resolved')).body.feedback.map((f) => f.id)).toEqual([oldest.id]);
    expect((await get<FeedbackPage>('/feedback?status=pending')).body.feedback.map((f) => f.id)).toEqual([newest.id]);
    expect((await get<ByPage>('/feedback/by-page?status=in_progress,dismissed')).body.feedback).toEqual([]);
    expect((await patch(oldest.id, { status: 'done' })).status).toBe(400);
    expect((await patch(oldest.id, { status: 'resolved', extra: 1 })).status).toBe(400);
    expect((await patch(oldest.id, { status: 'dismissed' }, read)).status).toBe(403);
    for (const id of ['999999', '0', 'abc', '99999999999999999999', '2147483648'])
      expect([id, (await patch(id, { status: 'resolved' })).status]).toEqual([id, 404]);
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
      expect(
        JSON.stringify(rows, (_k, value: unknown) => (typeof value === 'bigint' ? String(value) : value)),
      ).not.toContain('203.0.113.77');
    }
  });

  it('answers the same JSON errors and auth as the visitors export', async () => {
    for (const path of ['/feedback', '/feedback/by-page', '/searches']) {
      const cases = [
        '?dateFrom=2026-02-31',
        '?dateFrom=2026-01-02&dateTo=2026-01-01',
        '?limit=0',
        '?limit=101',
        '?limit=x',
      ];
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

  it.each(LIMITED)(
    'limits %s per address and hour, whatever the user agent, and per given visitor id',
    async (path, max, item) => {
      const limited = (index: number) => ({ index, error: expect.stringMatching(/^rate limited/) });
      // a new user agent on every item is not a new visitor as far as the limit goes
      const rotating = Array.from({ length: max + 2 }, (_, i) => ({
        ...item(i),
        ip: '198.51.100.5',
        userAgent: i % 2 ? `${FIREFOX} r${i}` : `${CHROME} r${i}`,
      }));
      expect((await post(path, rotating)).body).toEqual({
        accepted: max,
        duplicates: 0,
        rejected: [limited(max), limited(max + 1)],
      });
      // nor is a visitor id given with the address, or the address written another way
      expect((await post(path, [{ ...item(0), ip: '::ffff:198.51.100.5', visitorId: 'fresh' }])).body.rejected).toEqual(
        [limited(0)],
      );
      // another address is not affected
      expect((await post(path, [{ ...item(0), ip: '198.51.100.6', userAgent: CHROME }])).body.accepted).toBe(1);
      // a given visitor id is limited on its own, from any address or none
      const byId = Array.from({ length: max + 1 }, (_, i) => ({
        ...item(i),
        visitorId: 'reader-1',
        ...(i % 2 ? { ip: `203.0.113.${i % 250}` } : {}),
      }));
      expect((await post(path, byId)).body).toEqual({ accepted: max, duplicates: 0, rejected: [limited(max)] });
    },
  );

  it('limits browser feedback per address, whatever the user agent', async () => {
    const url = 'https://docs.example.com/guide';
    for (let i = 0; i <= FEEDBACK_PER_VISITOR_HOUR; i++) {
      const userAgent = CHROME.replace('131.0.0.0', `131.0.${i}.0`);
      expect(
        (await browser('/api/feedback', { projectId, url, helpful: true }, { 'user-agent': userAgent })).status,
      ).toBe(202);
    }
    expect((await get<FeedbackPage>('/feedback?limit=100')).body.feedback).toHaveLength(FEEDBACK_PER_VISITOR_HOUR);
  });

  it.each(LIMITED)(
    'reports a resent %s id as a duplicate, not rate limited, without using up the limit',
    async (path, max, item) => {
      const visitor = { ip: '198.51.100.9', userAgent: CHROME };
      const items = Array.from({ length: max + 2 }, (_, i) => ({ id: `i${i}`, ...item(i), ...visitor }));
      expect((await post(path, items.slice(0, max - 1))).body).toEqual({
        accepted: max - 1,
        duplicates: 0,
        rejected: [],
      });
      // resent ids (a retry after a timeout) around the last new item the limit allows
      expect((await post(path, [items[0], items[max - 1], items[max - 2]])).body).toEqual({
        accepted: 3,
        duplicates: 2,
        rejected: [],
      });
      // the limit is used up now: a new id is refused, a resent one is still a duplicate
      const limited = { index: 1, error: expect.stringMatching(/^rate limited/) };
      expect((await post(path, [items[1], items[max], items[max - 1]])).body).toEqual({
        accepted: 2,
        duplicates: 2,
        rejected: [limited],
      });
    },
  );

  it('counts searches by normalised term with click-through and the most clicked page', async () => {
    const searches = [
      ...Array.from({ length: 4 }, (_, i) => ({
        query: i % 2 ? '  Rate   LIMITS ' : 'rate limits',
        timestamp: ago((i + 1) * HOUR),
      })),
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
    const items = Array.from({ length: 23 }, (_, i) => ({
      id: `f${i}`,
      timestamp: new Date(base + Math.floor(i / 4) * 60_000).toISOString(),
      path: `/p${i % 5}`,
      helpful: i % 2 === 0,
    }));
    expect((await post('/feedback', items)).body.accepted).toBe(23);
    const all = (await get<FeedbackPage>('/feedback?limit=100')).body.feedback.map((f) => f.id);
    expect(all).toHaveLength(23);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: { status: number; body: FeedbackPage } = await get<FeedbackPage>(
        `/feedback?limit=5${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(res.status).toBe(200);
      expect(v.feedback(res.body)).toBe(true);
      expect(res.body.hasMore).toBe(res.body.nextCursor !== null);
      seen.push(...res.body.feedback.map((f) => f.id));
      cursor = res.body.nextCursor;
      // rows arriving mid-walk, newer and older than the position, are not mixed into this listing
      if (pages++ === 1)
        await post('/feedback', [
          { timestamp: new Date(base).toISOString(), path: '/late', helpful: true },
          { path: '/new', helpful: false },
        ]);
    } while (cursor);
    expect(pages).toBe(5);
    expect(seen).toEqual(all);
    expect(new Set(seen).size).toBe(23);
    expect((await get<FeedbackPage>('/feedback?limit=100')).body.feedback).toHaveLength(25);
  });

  it('pages feedback by page and searches with cursors, each page in order and every row once', async () => {
    const feedback = Array.from({ length: 30 }, (_, i) => ({
      path: `/page-${i % 7}`,
      helpful: i % 3 === 0,
      timestamp: ago(HOUR + i),
    }));
    await post('/feedback', feedback);
    const searches = Array.from({ length: 40 }, (_, i) => ({ query: `term ${i % 9}`, timestamp: ago(HOUR + i) }));
    await post('/searches', searches);

    const walk = async <T>(
      path: string,
      rowsOf: (body: T) => unknown[],
      next: (body: T) => string | null,
      validate: (body: T) => boolean,
    ) => {
      const rows: unknown[] = [];
      let cursor: string | null = null;
      do {
        const res: { status: number; body: T } = await get<T>(
          `${path}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        );
        expect(res.status).toBe(200);
        expect(validate(res.body)).toBe(true);
        rows.push(...rowsOf(res.body));
        cursor = next(res.body);
        // a new search between pages must not shift the order
        await post('/searches', [{ query: 'term 8' }]);
      } while (cursor);
      return rows;
    };
    const pages = await walk<ByPage>(
      '/feedback/by-page?limit=3',
      (b) => b.feedback,
      (b) => b.nextCursor,
      v.feedbackByPage,
    );
    expect(pages).toEqual((await get<ByPage>('/feedback/by-page?limit=100')).body.feedback);
    expect(pages).toHaveLength(7);

    const first = await get<Searches>('/searches?limit=100');
    const terms = await walk<Searches>(
      '/searches?limit=2',
      (b) => b.searches,
      (b) => b.nextCursor,
      v.searches,
    );
    expect(terms.map((t) => (t as { searchQuery: string }).searchQuery)).toEqual(
      first.body.searches.map((t) => t.searchQuery),
    );
    expect(terms.map((t) => (t as { hits: number }).hits)).toEqual(first.body.searches.map((t) => t.hits));
    expect(terms).toHaveLength(9);
  });

  /** feedback on `n` pages and `n` search terms, one each: listings of `n` rows */
  const postPagesAndTerms = async (n: number) => {
    await post(
      '/feedback',
      Array.from({ length: n }, (_, i) => ({ path: `/p${i}`, helpful: true })),
    );
    await post(
      '/searches',
      Array.from({ length: n }, (_, i) => ({ query: `q${i}` })),
    );
  };

  /** every row of a listing, one page of `limit=1` at a time, calling `between` after each page */
  const walkAll = async <Row>(path: string, between: (page: number) => Promise<void>) => {
    const rows: Row[] = [];
    let cursor: string | null = null;
    let page = 0;
    do {
      const res: { status: number; body: { feedback: Row[]; nextCursor: string | null } } = await get(
        `${path}&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(res.status).toBe(200);
      rows.push(...res.body.feedback);
      cursor = res.body.nextCursor;
      await between(page++);
    } while (cursor);
    return rows;
  };
  /** stores feedback with ids `path#i`, and answers their listing ids by that name */
  const postNamed = async (items: { path: string; helpful: boolean; status?: string }[]) => {
    const named = items.map((f, i) => ({ id: `${f.path}#${i}`, path: f.path, helpful: f.helpful }));
    expect((await post('/feedback', named)).body.accepted).toBe(items.length);
    const all = (await get<FeedbackPage>('/feedback?limit=100')).body.feedback;
    // newest first, ties by higher id first: the reverse of the order posted
    const ids = new Map(named.map((f, i) => [f.id, all[all.length - 1 - i].id]));
    for (const [i, f] of items.entries())
      if (f.status) expect((await patch(ids.get(named[i].id)!, { status: f.status })).status).toBe(200);
    return (name: string) => ids.get(name)!;
  };

  it('walks feedback by page as it stood at the first page: a status change mid-walk neither skips nor repeats a page', async () => {
    const id = await postNamed([
      ...Array.from({ length: 3 }, () => ({ path: '/a', helpful: false })),
      ...Array.from({ length: 2 }, () => ({ path: '/b', helpful: false })),
      ...Array.from({ length: 2 }, () => ({ path: '/b', helpful: true, status: 'resolved' })),
      { path: '/c', helpful: true },
      { path: '/d', helpful: true },
      { path: '/e', helpful: false, status: 'dismissed' },
    ]);
    const before = (await get<ByPage>('/feedback/by-page?status=pending&limit=100')).body.feedback;
    expect(before.map((p) => [p.path, p.total])).toEqual([
      ['/a', 3],
      ['/b', 2],
      ['/c', 1],
      ['/d', 1],
    ]);
    const walked = await walkAll<ByPage['feedback'][number]>('/feedback/by-page?status=pending', async (page) => {
      if (page === 0) {
        // /b jumps ahead of the page just seen (4 > 3), /a drops behind it (2 < 3)
        for (const name of ['/b#5', '/b#6', '/e#9'])
          expect((await patch(id(name), { status: 'pending' })).status).toBe(200);
        expect((await patch(id('/a#0'), { status: 'resolved' })).status).toBe(200);
      }
      if (page !== 1) return;
      // pages not yet seen lose their only pending entry: at once, or after changing back and forth
      expect((await patch(id('/d#8'), { status: 'in_progress' })).status).toBe(200);
      for (const status of ['resolved', 'pending', 'dismissed'])
        expect((await patch(id('/c#7'), { status })).status).toBe(200);
    });
    expect(walked).toEqual(before);
    // a fresh walk shows the changes
    expect(
      (await get<ByPage>('/feedback/by-page?status=pending&limit=100')).body.feedback.map((p) => [p.path, p.total]),
    ).toEqual([
      ['/b', 4],
      ['/a', 2],
      ['/e', 1],
    ]);
  });

  it('walks feedback entries as they stood at the first page, whatever changes their status or vote mid-walk', async () => {
    const id = await postNamed([
      { path: '/a', helpful: false },
      { path: '/b', helpful: true, status: 'resolved' },
      { path: '/c', helpful: false },
      { path: '/d', helpful: true },
    ]);
    const vote = (path: string, submission: string, more: { comment?: string } = {}) =>
      browser('/api/feedback', {
        projectId,
        url: `https://docs.example.com${path}`,
        helpful: true,
        submission,
        ...more,
      });
    for (const [path, submission] of [
      ['/w', 'sub_walk_0001'],
      ['/x', 'sub_walk_0002'],
    ])
      expect((await vote(path, submission)).status).toBe(202);
    const pending = (await get<FeedbackPage>('/feedback?status=pending&limit=100')).body.feedback;
    expect(pending.map((f) => f.path)).toEqual(['/x', '/w', '/d', '/c', '/a']);
    const walked = await walkAll<FeedbackEntry>('/feedback?status=pending', async (page) => {
      if (page !== 0) return;
      expect((await patch(id('/c#2'), { status: 'resolved' })).status).toBe(200);
      expect((await patch(id('/b#1'), { status: 'pending' })).status).toBe(200);
    });
    expect(walked).toEqual(pending);

    const votes = (await get<FeedbackPage>('/feedback?source=thumbs_only&limit=100')).body.feedback;
    expect(votes.map((f) => f.path)).toEqual(['/x', '/w', '/d', '/c', '/b', '/a']);
    const walkedVotes = await walkAll<FeedbackEntry>('/feedback?source=thumbs_only', async (page) => {
      // the widget's comment completes a vote not yet seen: this walk keeps the vote as it was
      if (page === 0) await vote('/w', 'sub_walk_0001', { comment: 'Too short' });
    });
    expect(walkedVotes).toEqual(votes);
    const now = (await get<FeedbackPage>('/feedback?limit=100')).body.feedback;
    expect(now.find((f) => f.path === '/w')).toMatchObject({ source: 'contextual', comment: 'Too short' });
  });

  it('refuses altered, forged and misapplied cursors with 400, never 500', async () => {
    await postPagesAndTerms(4);
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
      // a different first character: changing the last two to a fixed "AA" left one signature in 4,096 as issued
      `${body}.${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`,
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
      const res = await get<{ error: string; details: { message: string }[] }>(
        `/feedback?cursor=${encodeURIComponent(c)}`,
      );
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
    const foreign = await fetch(`${app.url}/v1/analytics/${other.id}/feedback?cursor=${encodeURIComponent(cursor)}`, {
      headers: { authorization: `Bearer ${otherKey}` },
    });
    expect(foreign.status).toBe(400);
    // the same cursor with the same (explicit) parameters is fine
    expect((await get<FeedbackPage>(`/feedback?limit=1&cursor=${encodeURIComponent(cursor)}`)).status).toBe(200);
  });

  it('refuses a cursor with anything appended, inserted or changed on all three listings', async () => {
    await postPagesAndTerms(3);
    for (const path of ['/feedback?limit=1', '/feedback/by-page?limit=1', '/searches?limit=1']) {
      const cursor = (await get<{ nextCursor: string | null }>(path)).body.nextCursor!;
      const [body, signature] = cursor.split('.');
      for (const altered of [`${cursor}=`, `${cursor}!`, `${cursor}==`, `${body}.!${signature}`, `!${cursor}`]) {
        const res = await get<{ error: string; details: { message: string }[] }>(
          `${path}&cursor=${encodeURIComponent(altered)}`,
        );
        expect([path, altered, res.status]).toEqual([path, altered, 400]);
        expect(v.error(res.body)).toBe(true);
        expect(res.body.details[0].message).toMatch(/^cursor: /);
      }
      expect((await get(`${path}&cursor=${encodeURIComponent(cursor)}`)).status).toBe(200);
    }
  });

  it('takes browser feedback only from the project site and from people; a comment completes its own vote', async () => {
    const url = 'https://docs.example.com/guide';
    const submission = 'sub_0123456789';
    expect((await browser('/api/feedback', { projectId, url, helpful: false, submission })).status).toBe(202);
    expect(
      (
        await browser('/api/feedback', {
          projectId,
          url,
          helpful: false,
          comment: 'Missing the <b>token</b> step',
          submission,
        })
      ).status,
    ).toBe(202);
    // another visitor replaying the submission id gets a row of their own, not the first visitor's
    await browser(
      '/api/feedback',
      { projectId, url, helpful: true, comment: 'overwritten?', submission },
      { 'user-agent': FIREFOX },
    );
    const dropped = [
      browser('/api/feedback', { projectId, url: 'https://evil.example.net/guide', helpful: true }),
      browser('/api/feedback', { projectId, url, helpful: true }, { origin: 'https://evil.example.net' }),
      browser(
        '/api/feedback',
        { projectId, url, helpful: true },
        { 'user-agent': 'Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)' },
      ),
      browser('/api/feedback', { projectId: 'prj_unknownunknownunkn', url, helpful: true }),
    ];
    for (const res of await Promise.all(dropped)) expect(res.status).toBe(202);
    for (const body of [
      { projectId, url, helpful: 'yes' },
      { projectId, url: 'javascript:alert(1)', helpful: true },
      { projectId, url, helpful: true, submission: 'short' },
    ]) {
      expect((await browser('/api/feedback', body)).status).toBe(400);
    }
    const { body } = await get<FeedbackPage>('/feedback');
    expect(body.feedback.map((f) => [f.source, f.helpful, f.comment])).toEqual([
      ['contextual', true, 'overwritten?'],
      ['contextual', false, 'Missing the <b>token</b> step'],
    ]);
    expect((await get<ByPage>('/feedback/by-page')).body.feedback).toEqual([
      { path: '/guide', thumbsUp: 1, thumbsDown: 1, code: 0, total: 2 },
    ]);
    // the socket address (loopback here) was hashed, not kept
    const rows = await app.ctx.db.$queryRawUnsafe<Record<string, unknown>[]>('SELECT * FROM "AnalyticsFeedback"');
    expect(
      JSON.stringify(rows, (_k, value: unknown) => (typeof value === 'bigint' ? String(value) : value)),
    ).not.toMatch(/127\.0\.0\.1|::1/);
  });

  it('answers 202 to a browser submission naming a project id no column can hold, storing nothing, never a 500', async () => {
    const url = 'https://docs.example.com/guide';
    for (const id of ['\u0000', `${projectId}\u0000`, `${projectId}\ud800`]) {
      expect((await browser('/api/feedback', { projectId: id, url, helpful: true })).status).toBe(202);
      expect((await browser('/api/search', { projectId: id, url, query: 'auth' })).status).toBe(202);
    }
    // free text is normalised as server-side: NUL removed (search: a space), an unpaired surrogate made U+FFFD
    const comment = 'No\u0000 port \ud800';
    expect((await browser('/api/feedback', { projectId, url, helpful: false, comment })).status).toBe(202);
    expect((await browser('/api/search', { projectId, url, query: 'web\u0000hooks\udc00' })).status).toBe(202);
    expect((await get<FeedbackPage>('/feedback')).body.feedback.map((f) => [f.helpful, f.comment])).toEqual([
      [false, 'No port \ufffd'],
    ]);
    expect((await get<Searches>('/searches')).body.searches.map((t) => [t.searchQuery, t.hits])).toEqual([
      ['web hooks\ufffd', 1],
    ]);
    // nor is such a project id a 500 for a key of every project
    const admin = await app.key(null, 'read');
    const res = await fetch(`${app.url}/v1/analytics/%00/feedback`, { headers: { authorization: `Bearer ${admin}` } });
    expect(res.status).toBe(404);
  });

  it('scopes a widget submission id to its page: reused on another page, it is a row of its own there', async () => {
    const submission = 'sub_reused_0123';
    const page = (path: string) => `https://docs.example.com${path}`;
    await browser('/api/feedback', { projectId, url: page('/guide'), helpful: true, submission });
    await browser('/api/feedback', { projectId, url: page('/api'), helpful: false, comment: 'No auth', submission });
    // the first page's own comment still completes the first page's vote
    await browser('/api/feedback', { projectId, url: page('/guide/'), helpful: true, comment: 'Clear', submission });
    const { body } = await get<FeedbackPage>('/feedback');
    expect(body.feedback.map((f) => [f.path, f.helpful, f.comment]).sort()).toEqual([
      ['/api', false, 'No auth'],
      ['/guide', true, 'Clear'],
    ]);
    expect((await get<ByPage>('/feedback/by-page')).body.feedback).toEqual([
      { path: '/api', thumbsUp: 0, thumbsDown: 1, code: 0, total: 1 },
      { path: '/guide', thumbsUp: 1, thumbsDown: 0, code: 0, total: 1 },
    ]);
  });

  it('takes browser searches and result clicks', async () => {
    const url = 'https://docs.example.com/search?q=x';
    await browser('/api/search', { projectId, url, query: 'Webhooks' }, { origin: 'https://docs.example.com' });
    await browser('/api/search', { projectId, url, query: 'webhooks', clickedPath: '../guides/webhooks?ref=search' });
    await browser('/api/search', { projectId, url: 'https://evil.example.net/', query: 'webhooks' });
    const { body } = await get<Searches>('/searches');
    expect(body.searches.map(({ lastSearchedAt: _, ...s }) => s)).toEqual([
      { searchQuery: 'webhooks', hits: 1, ctr: 1, topClickedPage: '/guides/webhooks' },
    ]);
    expect((await fetch(`${app.url}/api/search`, { method: 'OPTIONS' })).status).toBe(204);
  });
});
