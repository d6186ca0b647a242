import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { analyticsRoutes } from '../../../../src/http/routes/analytics.js';
import { analyticsFeedbackRoutes } from '../../../../src/http/routes/analytics-feedback.js';
import { analyticsAiRoutes } from '../../../../src/http/routes/analytics-ai.js';
import { analyticsBreakdownRoutes } from '../../../../src/http/routes/analytics-breakdowns.js';
import { dashboardRoutes } from '../../../../src/http/routes/dashboard.js';
import { launchBrowser, SCREENSHOT_DIR } from '../../../support/browser.js';
import { startTestApp, type TestApp } from '../../../support/test-app.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
declare const window: any;
declare const document: any;

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const bot = (name: string) =>
  `Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ${name}/1.0; +https://example.com/bot)`;
const DAY = 86_400_000;
const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
const at = (daysAgo: number) => new Date(today - daysAgo * DAY + 9 * 3_600_000);

describe('the dashboard shows AI traffic as the API counts it', () => {
  let app: TestApp;
  let browser: Browser;
  let page: Page;
  let projectId: string;
  let readKey: string;
  beforeAll(async () => {
    app = await startTestApp({
      provider: 'sqlite',
      routes: ({ analytics }) => [
        dashboardRoutes,
        analyticsRoutes({ analytics }),
        analyticsFeedbackRoutes({ analytics }),
        analyticsBreakdownRoutes({ analytics }),
        analyticsAiRoutes({ analytics }),
      ],
    });
    projectId = (await app.project()).id;
    readKey = await app.key(projectId, 'read');
    const writeKey = await app.key(projectId, 'write');
    const events = [
      { path: '/a', userAgent: CHROME, ip: '192.0.2.1' },
      { path: '/a', userAgent: CHROME, ip: '192.0.2.2', referrer: 'https://chatgpt.com/' },
      { path: '/b', userAgent: CHROME, ip: '192.0.2.3', referrer: 'https://www.perplexity.ai/search' },
      { path: '/a', userAgent: bot('GPTBot'), ip: '198.51.100.1' },
      { path: '/b', userAgent: bot('GPTBot'), ip: '198.51.100.1' },
      { path: '/b', userAgent: bot('OAI-SearchBot'), ip: '198.51.100.2' },
      { path: '/a', userAgent: bot('ChatGPT-User'), ip: '198.51.100.3' },
      { path: '/c', userAgent: bot('Claude-Code'), ip: '198.51.100.4' },
    ].map((e) => ({ timestamp: at(1).toISOString(), ...e }));
    const headers = { authorization: `Bearer ${writeKey}` };
    const res = await fetch(`${app.url}/v1/analytics/${projectId}/events`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(events),
    });
    expect(((await res.json()) as { accepted: number }).accepted).toBe(events.length);
    const clf = at(1)
      .toUTCString()
      .replace(/^\w+, (\d+) (\w+) (\d+) ([\d:]+) GMT$/, '$1/$2/$3:$4 +0000');
    const log = [
      `198.51.100.1 - - [${clf}] "GET /gone HTTP/1.1" 404 0 "-" "${bot('GPTBot')}"`,
      `198.51.100.9 - - [${clf}] "GET /broken HTTP/1.1" 502 0 "-" "${bot('ClaudeBot')}"`,
    ];
    await fetch(`${app.url}/v1/analytics/${projectId}/logs`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'text/plain' },
      body: `${log.join('\n')}\n`,
    });
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1200, height: 2400 } });
    await page.goto(`${app.url}/dashboard`);
    await page.fill('#project', projectId);
    await page.fill('#key', readKey);
    await page.click('#connect button[type=submit]');
    await page.waitForSelector('body[data-loaded=overview]');
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  const api = async (p: string): Promise<any> =>
    (
      await fetch(`${app.url}/v1/analytics/${projectId}/ai/${p}`, { headers: { authorization: `Bearer ${readKey}` } })
    ).json();
  const table = (id: string) =>
    page.$$eval(`#${id} tbody tr`, (trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].map((td: any) => td.textContent)),
    );
  const range = async () =>
    `dateFrom=${await page.inputValue('#date-from')}&dateTo=${await page.inputValue('#date-to')}`;

  it('purpose split: table and chart equal the API', async () => {
    const { totals } = await api(`purposes?${await range()}`);
    const columns = [
      'humanViews',
      'searchIndexViews',
      'trainingViews',
      'assistantViews',
      'agentViews',
      'otherAiViews',
      'unverifiedAiViews',
    ];
    const rows = await table('purposes');
    expect(rows.map((r) => [r[1], r[2]])).toEqual(
      columns.map((c) => [String(totals.views[c]), String(totals.visitors[c])]),
    );
    expect(rows.map((r) => r[1])).toEqual(['3', '1', '2', '1', '1', '2', '0']);
    const chart = await page.evaluate(() => {
      const c = window.Chart.getChart(document.getElementById('purpose-chart'));
      return { views: c.data.datasets[0].data, visitors: c.data.datasets[1].data };
    });
    expect(chart).toEqual({
      views: columns.map((c) => totals.views[c]),
      visitors: columns.map((c) => totals.visitors[c]),
    });
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'dashboard-ai-traffic.png'), fullPage: true });
  });

  it('referrals, agent × page and misses: tables equal the API', async () => {
    const q = await range();
    const referrals = await api(`referrals?${q}`);
    expect(await table('referrals')).toEqual(
      referrals.assistants.map((r: any) => [r.assistant, String(r.views), String(r.visitors)]),
    );
    expect(referrals.assistants.map((r: any) => r.assistant).sort()).toEqual(['ChatGPT', 'Perplexity']);
    const agentPages = await api(`agent-pages?${q}&limit=20`);
    expect(await table('agent-pages')).toEqual(
      agentPages.rows.map((r: any) => [r.agent, r.path, String(r.views), String(r.visitors)]),
    );
    expect(agentPages.rows).toHaveLength(5);
    const misses = await api(`misses?${q}&limit=20`);
    expect(await table('misses')).toEqual(
      misses.rows.map((r: any) => [r.path, r.agent, String(r.status), String(r.count)]),
    );
    expect(misses.rows.map((r: any) => r.path).sort()).toEqual(['/broken', '/gone']);
  });
});
