import { analyticsRoutes } from '../../../../src/http/routes/analytics.js';
import { analyticsAiRoutes } from '../../../../src/http/routes/analytics-ai.js';
import { startTestApp, type TestApp } from '../../../support/test-app.js';
import { PROVIDERS } from '../../../support/databases.js';

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';
const CLAUDE =
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)';
const line = (path: string, status: number, ua: string, second = 0) =>
  `198.51.100.7 - - [20/Nov/2026:10:00:${String(second).padStart(2, '0')} +0000] "GET ${path} HTTP/1.1" ${status} 512 "-" "${ua}"`;

describe.each(PROVIDERS)('what AI asked for and did not get, on %s', (provider) => {
  let app: TestApp;
  let projectId: string;
  let readKey: string;
  let writeKey: string;
  beforeAll(async () => {
    app = await startTestApp({
      provider,
      routes: ({ analytics }) => [analyticsRoutes({ analytics }), analyticsAiRoutes({ analytics })],
      clock: () => new Date('2026-11-21T00:00:00Z'),
    });
    projectId = (await app.project()).id;
    readKey = await app.key(projectId, 'read');
    writeKey = await app.key(projectId, 'write');
  });
  afterAll(async () => {
    await app.close();
  });

  const importLog = (lines: string[]) =>
    fetch(`${app.url}/v1/analytics/${projectId}/logs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${writeKey}`, 'content-type': 'text/plain' },
      body: `${lines.join('\n')}\n`,
    }).then((r) => r.json() as Promise<{ accepted: number; skipped: Record<string, number> }>);
  const misses = (query = '') =>
    fetch(`${app.url}/v1/analytics/${projectId}/ai/misses?dateFrom=2026-11-20&dateTo=2026-11-21${query}`, {
      headers: { authorization: `Bearer ${readKey}` },
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));

  it('keeps AI requests answered 404, 410 or 5xx from logs — not humans, assets, other statuses — once per line', async () => {
    const log = [
      line('/old-page', 404, GPTBOT, 1),
      line('/old-page', 404, GPTBOT, 1), // the same line twice in one log: two requests
      line('/old-page', 404, CLAUDE, 2),
      line('/removed', 410, GPTBOT, 3),
      line('/api/guide', 503, CLAUDE, 4),
      line('/guide.md', 404, CHROME, 5), // raw Markdown by an unlisted client: an unidentified agent
      line('/old-page', 404, CHROME, 6), // a human
      line('/logo.png', 404, GPTBOT, 7), // a static asset
      line('/private', 403, GPTBOT, 8), // refused, not missing
      line('/ok', 200, GPTBOT, 9),
    ];
    const summary = await importLog(log);
    expect(summary.accepted).toBe(1);
    expect(summary.skipped['status 404']).toBe(6);
    const { status, body } = await misses();
    expect(status).toBe(200);
    expect(body).toEqual({
      rows: [
        { path: '/old-page', agent: 'GPTBot', status: 404, count: 2 },
        { path: '/api/guide', agent: 'ClaudeBot', status: 503, count: 1 },
        { path: '/guide', agent: 'unidentified agent', status: 404, count: 1 },
        { path: '/old-page', agent: 'ClaudeBot', status: 404, count: 1 },
        { path: '/removed', agent: 'GPTBot', status: 410, count: 1 },
      ],
      hasMore: false,
    });
    // importing the same log again adds nothing
    await importLog(log);
    expect((await misses()).body.rows[0].count).toBe(2);
    const paged = await misses('&limit=2&offset=2');
    expect(paged.body.rows.map((r: any) => r.path)).toEqual(['/guide', '/old-page']);
    expect(paged.body.hasMore).toBe(true);
    expect((await misses('&limit=0')).status).toBe(400);
  });
});
