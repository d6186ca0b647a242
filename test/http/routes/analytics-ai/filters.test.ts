import { analyticsRoutes } from '../../../../src/http/routes/analytics.js';
import { analyticsAiRoutes } from '../../../../src/http/routes/analytics-ai.js';
import { startTestApp, type TestApp } from '../../../support/test-app.js';
import { PROVIDERS } from '../../../support/databases.js';

const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';
const CLAUDE =
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)';
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
      routes: ({ analytics }) => [analyticsRoutes({ analytics }), analyticsAiRoutes({ analytics })],
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
    await fetch(`${app.url}/v1/analytics/${projectId}/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${write}`, 'content-type': 'application/json' },
      body: JSON.stringify(views),
    });
  });
  afterAll(async () => {
    await app.close();
  });
  const get = async (report: string, query: string) => {
    const res = await fetch(
      `${app.url}/v1/analytics/${projectId}/ai/${report}?dateFrom=2026-11-20&dateTo=2026-11-21${query}`,
      { headers: { authorization: `Bearer ${read}` } },
    );
    return { status: res.status, body: (await res.json()) as { rows: Record<string, unknown>[]; hasMore: boolean } };
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
});
