import { analyticsRoutes } from '../../../../src/http/routes/analytics.js';
import { analyticsBreakdownRoutes } from '../../../../src/http/routes/analytics-breakdowns.js';
import { startTestApp, type TestApp } from '../../../support/test-app.js';
import { PROVIDERS } from '../../../support/databases.js';

const NOW = new Date('2026-11-21T12:00:00.000Z');
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX = 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

type Row = { path: string; human: number; ai: number; total: number };

describe.each(PROVIDERS)('raw Markdown reads on %s', (provider) => {
  let app: TestApp;
  let projectId: string;
  let key: string;

  beforeAll(async () => {
    app = await startTestApp({
      provider,
      routes: ({ analytics }) => [analyticsRoutes({ analytics }), analyticsBreakdownRoutes({ analytics })],
      clock: () => NOW,
    });
  });
  afterAll(async () => {
    await app.close();
  });
  beforeEach(async () => {
    projectId = (await app.project()).id;
    key = await app.key(projectId, 'write');
  });

  async function get<T>(what: string): Promise<T> {
    const res = await fetch(`${app.url}/v1/analytics/${projectId}/${what}?dateFrom=2026-11-01`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(res.status).toBe(200);
    return (await res.json()) as T;
  }

  it('counts a browser-like client fetching raw Markdown as an unidentified AI agent, on the page the Markdown is of', async () => {
    const at = '2026-11-20T10:00:00Z';
    const events = [
      { timestamp: at, path: '/guide/intro', userAgent: CHROME, ip: '203.0.113.1' },
      { timestamp: at, path: '/guide/intro.md', userAgent: CHROME, ip: '203.0.113.2' },
      { timestamp: at, path: 'https://docs.example.com/guide/intro.md?lang=en', userAgent: FIREFOX, ip: '203.0.113.2' },
      { timestamp: at, path: '/llms.txt', userAgent: CHROME, ip: '203.0.113.3' },
      { timestamp: at, path: '/docs/llms-full.txt', userAgent: CHROME, ip: '203.0.113.3' },
      // a listed agent keeps its name, and known bots stay bots, whatever they fetch
      { timestamp: at, path: '/guide/intro.md', userAgent: GPTBOT, ip: '203.0.113.4' },
      { timestamp: at, path: '/guide/intro.md', userAgent: GOOGLEBOT, ip: '203.0.113.5' },
      { timestamp: at, path: '/guide/intro.md', userAgent: 'curl/8.5.0', ip: '203.0.113.6' },
    ];
    const res = await fetch(`${app.url}/v1/analytics/${projectId}/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(events),
    });
    expect(await res.json()).toEqual({ accepted: 8, duplicates: 0, rejected: [] });

    // two unidentified agents on one address with two user agents are two AI visitors; GPTBot is a third
    expect((await get<{ visitors: Row[] }>('visitors')).visitors).toEqual([
      { path: '/guide/intro', human: 1, ai: 3, total: 4 },
      { path: '/docs/llms-full.txt', human: 0, ai: 1, total: 1 },
      { path: '/llms.txt', human: 0, ai: 1, total: 1 },
    ]);
    expect((await get<{ totals: object }>('views')).totals).toEqual({ human: 1, ai: 5, total: 6 });
    expect((await get<{ agents: object[] }>('agents')).agents).toEqual([
      {
        agent: 'unidentified agent',
        kind: 'unknown',
        visitors: 3,
        verifiedVisitors: 0,
        unverifiableVisitors: 3,
        views: 4,
        verifiedViews: { signature: 0, ipRange: 0, reverseDns: 0 },
      },
      {
        agent: 'GPTBot',
        kind: 'crawler',
        visitors: 1,
        verifiedVisitors: 0,
        unverifiableVisitors: 1,
        views: 1,
        verifiedViews: { signature: 0, ipRange: 0, reverseDns: 0 },
      },
    ]);
  });

  it('counts raw Markdown in imported logs the same way', async () => {
    const line = (ip: string, path: string, ua: string) =>
      `${ip} - - [20/Nov/2026:10:00:00 +0000] "GET ${path} HTTP/1.1" 200 512 "-" "${ua}"`;
    const body = [
      line('203.0.113.1', '/quickstart', CHROME),
      line('203.0.113.2', '/quickstart.md', CHROME),
      line('203.0.113.2', '/llms.txt', CHROME),
    ].join('\n');
    const res = await fetch(`${app.url}/v1/analytics/${projectId}/logs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'text/plain' },
      body,
    });
    expect(await res.json()).toMatchObject({ accepted: 3 });
    expect((await get<{ visitors: Row[] }>('visitors')).visitors).toEqual([
      { path: '/quickstart', human: 1, ai: 1, total: 2 },
      { path: '/llms.txt', human: 0, ai: 1, total: 1 },
    ]);
  });
});
