import { analyticsRoutes } from '../../../../src/http/routes/analytics.js';
import { analyticsAiRoutes } from '../../../../src/http/routes/analytics-ai.js';
import { startTestApp, type TestApp } from '../../../support/test-app.js';
import { PROVIDERS } from '../../../support/databases.js';

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const ua = (name: string) =>
  `Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ${name}/1.0; +https://example.com/bot)`;
const T = '2026-11-20T10:00:00Z';

describe.each(PROVIDERS)('AI traffic on %s', (provider) => {
  let app: TestApp;
  let projectId: string;
  let readKey: string;
  const range = 'dateFrom=2026-11-19&dateTo=2026-11-22';

  beforeAll(async () => {
    app = await startTestApp({
      provider,
      routes: ({ analytics }) => [analyticsRoutes({ analytics }), analyticsAiRoutes({ analytics })],
      clock: () => new Date('2026-11-21T00:00:00Z'),
    });
    projectId = (await app.project()).id;
    readKey = await app.key(projectId, 'read');
    const writeKey = await app.key(projectId, 'write');
    const events = [
      // humans: one plain, one sent by ChatGPT (referrer), one by Perplexity (utm_source), twice
      { path: '/a', userAgent: CHROME, ip: '192.0.2.1' },
      { path: '/a', userAgent: CHROME, ip: '192.0.2.2', referrer: 'https://chatgpt.com/c/1' },
      { path: 'https://docs.example.com/b?utm_source=perplexity', userAgent: CHROME, ip: '192.0.2.3' },
      { path: 'https://docs.example.com/b?utm_source=perplexity', userAgent: CHROME, ip: '192.0.2.3' },
      // AI: training crawler (twice, one address), search indexer, assistant, agent, unidentified (raw Markdown)
      { path: '/a', userAgent: ua('GPTBot'), ip: '198.51.100.1' },
      { path: '/a', userAgent: ua('GPTBot'), ip: '198.51.100.1' },
      { path: '/b', userAgent: ua('OAI-SearchBot'), ip: '198.51.100.2' },
      { path: '/a', userAgent: ua('ChatGPT-User'), ip: '198.51.100.3' },
      { path: '/c', userAgent: ua('Claude-Code'), ip: '198.51.100.4' },
      { path: '/c.md', userAgent: CHROME, ip: '198.51.100.5' },
      // a bot is neither
      {
        path: '/a',
        userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
        ip: '203.0.113.9',
      },
    ].map((e) => ({ timestamp: T, ...e }));
    const res = await fetch(`${app.url}/v1/analytics/${projectId}/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${writeKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(events),
    });
    expect(((await res.json()) as { accepted: number }).accepted).toBe(events.length);
  });
  afterAll(async () => {
    await app.close();
  });

  const get = async (path: string, init: { key?: string; accept?: string } = {}) => {
    const res = await fetch(`${app.url}/v1/analytics/${projectId}/ai/${path}`, {
      headers: { authorization: `Bearer ${init.key ?? readKey}`, ...(init.accept ? { accept: init.accept } : {}) },
    });
    const type = res.headers.get('content-type') ?? '';
    return {
      status: res.status,
      type,
      body: type.startsWith('application/json') ? ((await res.json()) as any) : await res.text(),
    };
  };

  it('splits views and visitors by purpose, per page and site-wide', async () => {
    const { status, body } = await get(`purposes?${range}`);
    expect(status).toBe(200);
    expect(body.totals.views).toEqual({
      humanViews: 4,
      aiViews: 6,
      searchIndexViews: 1,
      trainingViews: 2,
      assistantViews: 1,
      agentViews: 1,
      otherAiViews: 3,
      totalViews: 10,
      unverifiedAiViews: 0,
    });
    expect(body.totals.visitors).toEqual({
      humanViews: 3,
      aiViews: 5,
      searchIndexViews: 1,
      trainingViews: 1,
      assistantViews: 1,
      agentViews: 1,
      otherAiViews: 3,
      totalViews: 8,
      unverifiedAiViews: 0,
    });
    expect(
      body.pages.map((p: any) => [p.path, p.views.totalViews, p.views.trainingViews, p.visitors.humanViews]),
    ).toEqual([
      ['/a', 5, 2, 2],
      ['/b', 3, 0, 1],
      ['/c', 2, 0, 0],
    ]);
    expect(body.hasMore).toBe(false);
    const paged = await get(`purposes?${range}&limit=1&offset=1`);
    expect(paged.body.pages.map((p: any) => p.path)).toEqual(['/b']);
    expect(paged.body.hasMore).toBe(true);
  });

  it('exports the purpose split as CSV with the compatible columns, by Accept or format=csv', async () => {
    const expected = [
      'path,humanViews,aiViews,searchIndexViews,trainingViews,otherAiViews,totalViews',
      '/a,2,3,0,2,1,5',
      '/b,2,1,1,0,0,3',
      '/c,0,2,0,0,2,2',
      '',
    ].join('\r\n');
    const byAccept = await get(`purposes?${range}`, { accept: 'text/csv' });
    expect(byAccept.status).toBe(200);
    expect(byAccept.type).toMatch(/^text\/csv/);
    expect(byAccept.body).toBe(expected);
    expect((await get(`purposes?${range}&format=csv&limit=1`)).body).toBe(expected);
  });

  it('lists which pages each agent reads, and each operator, paginated', async () => {
    const { body } = await get(`agent-pages?${range}`);
    expect(body.rows[0]).toEqual({ agent: 'GPTBot', path: '/a', views: 2, visitors: 1 });
    expect(body.rows).toHaveLength(5);
    expect(body.rows).toContainEqual({ agent: 'unidentified agent', path: '/c', views: 1, visitors: 1 });
    const operators = await get(`agent-pages?${range}&by=operator&limit=2`);
    // Claude-Code has no operator in the list, the unidentified agent none at all: both are "unknown"
    expect(operators.body).toEqual({
      rows: [
        { agent: 'OpenAI', path: '/a', views: 3, visitors: 2 },
        { agent: 'unknown', path: '/c', views: 2, visitors: 2 },
      ],
      hasMore: true,
    });
  });

  it('counts humans sent by AI assistants, by referrer or utm_source, per assistant and page', async () => {
    const { body } = await get(`referrals?${range}`);
    expect(body).toEqual({
      assistants: [
        { assistant: 'Perplexity', views: 2, visitors: 1 },
        { assistant: 'ChatGPT', views: 1, visitors: 1 },
      ],
      pages: [
        { assistant: 'Perplexity', path: '/b', views: 2, visitors: 1 },
        { assistant: 'ChatGPT', path: '/a', views: 1, visitors: 1 },
      ],
      hasMore: false,
    });
  });

  it('refuses bad parameters and missing keys with JSON errors, like /visitors', async () => {
    const bad = await get('agent-pages?by=country');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('Invalid query parameters');
    expect((await get('purposes?format=xml')).status).toBe(400);
    expect((await get('referrals?dateFrom=2026-11-22&dateTo=2026-11-19')).body).toEqual({
      error: 'Invalid query parameters',
      details: [{ message: 'dateFrom must be before dateTo' }],
    });
    const anonymous = await fetch(`${app.url}/v1/analytics/${projectId}/ai/purposes`);
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { error: string }).error).toEqual(expect.any(String));
  });
});
