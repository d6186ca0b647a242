import { DocsSites } from '../../../src/http/mcp/docs-sites.js';
import { analyticsRoutes } from '../../../src/http/routes/analytics.js';
import { analyticsCoverageRoutes } from '../../../src/http/routes/analytics-coverage.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';

const ua = (name: string) =>
  `Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ${name}/1.0; +https://example.com/bot)`;
const FIREFOX = 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';

describe('AI coverage of the docs navigation', () => {
  let app: TestApp;
  let failing = false;
  beforeAll(async () => {
    const sites = new DocsSites({
      now: Date.now,
      source: {
        headSha: async () => {
          if (failing) throw new Error('unreachable');
          return 'abc123';
        },
        files: async () => [
          {
            path: 'docs.json',
            text: JSON.stringify({
              navigation: {
                groups: [
                  { group: 'Guides', pages: ['a', 'b', 'c'] },
                  { group: 'API', pages: ['api/x'] },
                ],
              },
            }),
          },
          ...['a', 'b', 'c', 'api/x', 'orphan'].map((p) => ({ path: `${p}.md`, text: `# ${p}\n` })),
        ],
      },
    });
    app = await startTestApp({
      provider: 'sqlite',
      routes: ({ analytics }) => [analyticsRoutes({ analytics }), analyticsCoverageRoutes({ analytics, sites })],
      clock: () => new Date('2026-11-21T00:00:00Z'),
    });
  });
  afterAll(async () => {
    await app.close();
  });

  it('counts the distinct navigation pages each operator read per purpose, and its crawl-to-referral ratio', async () => {
    const projectId = (await app.project()).id;
    const [writeKey, readKey] = [await app.key(projectId, 'write'), await app.key(projectId, 'read')];
    const at = '2026-11-20T10:00:00Z';
    const events = [
      { path: '/a', userAgent: ua('GPTBot'), ip: '203.0.113.1' },
      { path: '/a', userAgent: ua('GPTBot'), ip: '203.0.113.1' },
      { path: '/b', userAgent: ua('GPTBot'), ip: '203.0.113.1' },
      { path: '/orphan', userAgent: ua('GPTBot'), ip: '203.0.113.1' },
      { path: '/api/x', userAgent: ua('ChatGPT-User'), ip: '203.0.113.2' },
      { path: '/a', userAgent: FIREFOX, ip: '198.51.100.1', referrer: 'https://chatgpt.com/' },
      { path: '/b', userAgent: FIREFOX, ip: '198.51.100.2', referrer: 'https://chatgpt.com/c/1' },
    ].map((e) => ({ timestamp: at, ...e }));
    const posted = await fetch(`${app.url}/v1/analytics/${projectId}/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${writeKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(events),
    });
    expect(((await posted.json()) as { accepted: number }).accepted).toBe(7);
    const get = () =>
      fetch(`${app.url}/v1/analytics/${projectId}/ai/coverage?dateFrom=2026-11-20&dateTo=2026-11-21`, {
        headers: { authorization: `Bearer ${readKey}` },
      });
    const report = (await (await get()).json()) as any;
    // GPTBot and ChatGPT-User are unverifiable here (no address lists are fresh in this test), not spoofed
    expect(report.commit).toBe('abc123');
    expect(report.pages).toBe(4);
    const training = report.rows.find((r: any) => r.operator === 'OpenAI' && r.purpose === 'training');
    expect(training).toEqual({
      operator: 'OpenAI',
      purpose: 'training',
      views: 4,
      pagesRead: 2,
      share: 0.5,
      mostReadSections: [{ group: 'Guides', pages: 3, pagesRead: 2, share: 0.6667 }],
      neverReadSections: ['API'],
    });
    expect(report.rows.find((r: any) => r.purpose === 'assistant')).toMatchObject({ pagesRead: 1, share: 0.25 });
    // overall and per page (every page OpenAI's crawlers read or its assistant sent a reader to, most AI views first)
    expect(report.crawlToReferral).toEqual([
      {
        operator: 'OpenAI',
        aiViews: 5,
        referrals: 2,
        ratio: 2.5,
        pages: [
          { path: '/a', aiViews: 2, referrals: 1, ratio: 2 },
          { path: '/b', aiViews: 1, referrals: 1, ratio: 1 },
          { path: '/api/x', aiViews: 1, referrals: 0, ratio: null },
          { path: '/orphan', aiViews: 1, referrals: 0, ratio: null },
        ],
        morePages: 0,
      },
    ]);

    failing = true;
    // the docs cannot be read: the index already held answers
    expect((await get()).status).toBe(200);
  });
});
