import { analyticsRoutes } from '../../../../src/http/routes/analytics.js';
import { analyticsAiRoutes } from '../../../../src/http/routes/analytics-ai.js';
import { analyticsFeedbackRoutes } from '../../../../src/http/routes/analytics-feedback.js';
import { startTestApp, type TestApp } from '../../../support/test-app.js';
import { PROVIDERS } from '../../../support/databases.js';

const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';
const CLAUDE =
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)';
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const line = (path: string, status: number, ua: string, second: number) =>
  `198.51.100.7 - - [20/Nov/2026:10:00:${String(second).padStart(2, '0')} +0000] "GET ${path} HTTP/1.1" ${status} 512 "-" "${ua}"`;

/** The `path` and `agent` filters of the reports that list pages and agents: filtered first, then paged. */
describe.each(PROVIDERS)('AI reports narrowed to a page or an agent, on %s', (provider) => {
  let app: TestApp;
  let projectId: string;
  let read: string;
  let write: string;
  beforeAll(async () => {
    app = await startTestApp({
      provider,
      env: { SCRIBE_AI_REVERSE_DNS: 'off' },
      routes: ({ analytics }) => [
        analyticsRoutes({ analytics }),
        analyticsAiRoutes({ analytics }),
        analyticsFeedbackRoutes({ analytics }),
      ],
      clock: () => new Date('2026-11-21T00:00:00Z'),
    });
    projectId = (await app.project()).id;
    read = await app.key(projectId, 'read');
    write = await app.key(projectId, 'write');
    const log = [
      line('/a', 404, GPTBOT, 1),
      line('/a', 404, GPTBOT, 2),
      line('/a', 404, CLAUDE, 3),
      line('/b', 404, GPTBOT, 4),
      line('/c', 410, CLAUDE, 5),
    ];
    await fetch(`${app.url}/v1/analytics/${projectId}/logs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${write}`, 'content-type': 'text/plain' },
      body: `${log.join('\n')}\n`,
    });
    const views = ['/a', '/a', '/b'].map((path, i) => ({
      timestamp: `2026-11-20T1${i}:00:00Z`,
      path,
      userAgent: i === 2 ? CLAUDE : GPTBOT,
      visitorId: `v${i}`,
    }));
    // humans sent by assistants: ChatGPT to /a (twice by h0, once by h1) and /b (h0), Perplexity to /a (h2)
    const referred = [
      ['/a', 'h0', 'https://chatgpt.com/'],
      ['/a', 'h0', 'https://chatgpt.com/'],
      ['/a', 'h1', 'https://chatgpt.com/c/1'],
      ['/b', 'h0', 'https://chatgpt.com/'],
      ['/a', 'h2', 'https://www.perplexity.ai/search'],
      ['/a', 'h3', null],
    ].map(([path, visitorId, referrer], i) => ({
      timestamp: `2026-11-20T0${i}:00:00Z`,
      path,
      userAgent: CHROME,
      visitorId,
      ...(referrer ? { referrer } : {}),
    }));
    for (const batch of [views, referred]) {
      const sent = await fetch(`${app.url}/v1/analytics/${projectId}/events`, {
        method: 'POST',
        headers: { authorization: `Bearer ${write}`, 'content-type': 'application/json' },
        body: JSON.stringify(batch),
      });
      expect(((await sent.json()) as { accepted: number }).accepted).toBe(batch.length);
    }
    const signals = [
      [
        'feedback',
        [
          { path: '/a', helpful: false, comment: 'wrong', visitorId: 'h0', timestamp: '2026-11-20T01:00:00Z' },
          { path: '/a', helpful: true, visitorId: 'h1', timestamp: '2026-11-20T02:00:00Z' },
          { path: '/b', helpful: false, visitorId: 'h2', timestamp: '2026-11-20T03:00:00Z' },
        ],
      ],
      [
        'searches',
        [
          { query: 'retry', visitorId: 'h0', timestamp: '2026-11-20T01:00:00Z' },
          { query: 'retry', clickedPath: '/a', visitorId: 'h0', timestamp: '2026-11-20T01:00:01Z' },
          { query: 'retry', visitorId: 'h1', timestamp: '2026-11-20T02:00:00Z' },
          { query: 'sandbox', visitorId: 'h1', timestamp: '2026-11-20T02:00:00Z' },
          { query: 'sandbox', clickedPath: '/b', visitorId: 'h1', timestamp: '2026-11-20T02:00:01Z' },
          { query: 'java sdk', visitorId: 'h2', timestamp: '2026-11-20T03:00:00Z' },
        ],
      ],
    ] as const;
    for (const [route, items] of signals) {
      const sent = await fetch(`${app.url}/v1/analytics/${projectId}/${route}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${write}`, 'content-type': 'application/json' },
        body: JSON.stringify(items),
      });
      expect(((await sent.json()) as { accepted: number }).accepted).toBe(items.length);
    }
  });
  afterAll(async () => {
    await app.close();
  });
  const get = async <T = { rows: Record<string, unknown>[]; hasMore: boolean }>(report: string, query: string) => {
    const res = await fetch(
      `${app.url}/v1/analytics/${projectId}/${['feedback', 'feedback/by-page', 'searches'].includes(report) ? report : `ai/${report}`}?dateFrom=2026-11-20&dateTo=2026-11-21${query}`,
      { headers: { authorization: `Bearer ${read}` } },
    );
    return { status: res.status, body: (await res.json()) as T };
  };

  it('misses: one page, one agent, or both, paged after filtering', async () => {
    expect((await get('misses', '&path=/a')).body.rows).toEqual([
      { path: '/a', agent: 'GPTBot', status: 404, count: 2 },
      { path: '/a', agent: 'ClaudeBot', status: 404, count: 1 },
    ]);
    expect((await get('misses', '&agent=ClaudeBot')).body.rows.map((r) => r.path)).toEqual(['/a', '/c']);
    expect((await get('misses', '&agent=ClaudeBot&path=/c')).body.rows).toEqual([
      { path: '/c', agent: 'ClaudeBot', status: 410, count: 1 },
    ]);
    const paged = await get('misses', '&agent=GPTBot&limit=1');
    expect(paged.body).toEqual({ rows: [{ path: '/a', agent: 'GPTBot', status: 404, count: 2 }], hasMore: true });
    expect((await get('misses', '&agent=GPTBot&limit=1&offset=1')).body).toEqual({
      rows: [{ path: '/b', agent: 'GPTBot', status: 404, count: 1 }],
      hasMore: false,
    });
    expect((await get('misses', '&path=/nowhere')).body).toEqual({ rows: [], hasMore: false });
    expect((await get('misses', '&path=')).status).toBe(400);
  });

  it('agent pages: one page or one agent', async () => {
    expect((await get('agent-pages', '&path=/a')).body.rows).toEqual([
      { agent: 'GPTBot', path: '/a', views: 2, visitors: 2 },
    ]);
    expect((await get('agent-pages', '&agent=ClaudeBot')).body.rows).toEqual([
      { agent: 'ClaudeBot', path: '/b', views: 1, visitors: 1 },
    ]);
    expect((await get('agent-pages', `&agent=${'x'.repeat(201)}`)).status).toBe(400);
  });

  type ReferralsBody = {
    assistants: { assistant: string; views: number; visitors: number }[];
    pages: { assistant: string; path: string; views: number; visitors: number }[];
    hasMore: boolean;
  };

  it("referrals: one page's assistants, or one assistant's pages", async () => {
    const all = await get<ReferralsBody>('referrals', '');
    expect(all.body.assistants).toEqual([
      { assistant: 'ChatGPT', views: 4, visitors: 2 },
      { assistant: 'Perplexity', views: 1, visitors: 1 },
    ]);
    expect((await get<ReferralsBody>('referrals', '&path=/a')).body).toEqual({
      assistants: [
        { assistant: 'ChatGPT', views: 3, visitors: 2 },
        { assistant: 'Perplexity', views: 1, visitors: 1 },
      ],
      pages: [
        { assistant: 'ChatGPT', path: '/a', views: 3, visitors: 2 },
        { assistant: 'Perplexity', path: '/a', views: 1, visitors: 1 },
      ],
      hasMore: false,
    });
    expect((await get<ReferralsBody>('referrals', '&agent=ChatGPT&limit=1')).body).toEqual({
      assistants: [{ assistant: 'ChatGPT', views: 4, visitors: 2 }],
      pages: [{ assistant: 'ChatGPT', path: '/a', views: 3, visitors: 2 }],
      hasMore: true,
    });
    expect((await get<ReferralsBody>('referrals', '&agent=Perplexity&path=/b')).body).toEqual({
      assistants: [],
      pages: [],
      hasMore: false,
    });
    const bad = await get<{ error: string; details: { message: string }[] }>('referrals', '&path=');
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].message).toMatch(/^path: /);
  });

  it('feedback and searches: one page', async () => {
    const feedback = await get<{ feedback: { path: string; comment: string | null }[] }>('feedback', '&path=/a');
    expect(feedback.body.feedback.map((f) => [f.path, f.comment])).toEqual([
      ['/a', null],
      ['/a', 'wrong'],
    ]);
    const byPage = await get<{ feedback: unknown[] }>('feedback/by-page', '&path=/b');
    expect(byPage.body.feedback).toEqual([{ path: '/b', thumbsUp: 0, thumbsDown: 1, code: 0, total: 1 }]);
    const searches = await get<{ searches: { searchQuery: string; hits: number }[]; totalSearches: number }>(
      'searches',
      '&path=/a',
    );
    expect(searches.body.searches.map((t) => [t.searchQuery, t.hits])).toEqual([['retry', 2]]);
    expect(searches.body.totalSearches).toBe(2);
    const unfiltered = await get<{ totalSearches: number }>('searches', '');
    expect(unfiltered.body.totalSearches).toBe(4);
    for (const report of ['feedback', 'feedback/by-page', 'searches']) {
      const bad = await get<{ details: { message: string }[] }>(report, `&path=${'x'.repeat(2049)}`);
      expect({ report, status: bad.status }).toEqual({ report, status: 400 });
      expect(bad.body.details[0].message).toMatch(/^path: /);
      expect((await get(report, '&path=/a&path=/b')).status).toBe(400);
    }
  });
});
