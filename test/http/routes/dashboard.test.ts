import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { analyticsRoutes } from '../../../src/http/routes/analytics.js';
import { analyticsAiRoutes } from '../../../src/http/routes/analytics-ai.js';
import { analyticsBreakdownRoutes } from '../../../src/http/routes/analytics-breakdowns.js';
import { analyticsFeedbackRoutes } from '../../../src/http/routes/analytics-feedback.js';
import { dashboardRoutes } from '../../../src/http/routes/dashboard.js';
import { appendEvent } from '../../../src/jobs/job-store.js';
import { launchBrowser, SCREENSHOT_DIR } from '../../support/browser.js';
import { startTestApp, type TestApp, jobRoutes } from '../../support/test-app.js';
import { testAppPrivateKey } from '../../support/app-private-key.js';

// Browser globals, for the functions page.evaluate runs inside the page (the project compiles without the DOM lib).
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const window: any;
declare const document: any;
declare const sessionStorage: any;
declare const localStorage: any;
type Element = unknown;

const privateKey = testAppPrivateKey();

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';
const CLAUDEBOT =
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)';

const DAY = 86_400_000;
const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());

/** Seeded traffic over three days: what the page shows must equal what the API says. */
function seedEvents() {
  const at = (daysAgo: number, hour: number) => new Date(today - daysAgo * DAY + hour * 3_600_000).toISOString();
  const events = [];
  for (let i = 0; i < 25; i++)
    events.push({
      timestamp: at(2, 9),
      path: `/page-${String(i).padStart(2, '0')}`,
      userAgent: CHROME,
      ip: `198.51.100.${i + 1}`,
    });
  events.push({ timestamp: at(1, 10), path: '/page-00', userAgent: FIREFOX, ip: '198.51.100.200' });
  events.push({ timestamp: at(1, 11), path: '/page-00', userAgent: GPTBOT, ip: '203.0.113.5' });
  events.push({ timestamp: at(1, 12), path: '/page-01', userAgent: GPTBOT, ip: '203.0.113.5' });
  events.push({ timestamp: at(0, 0), path: '/page-00', userAgent: CLAUDEBOT, ip: '203.0.113.9' });
  return events;
}

describe('the dashboard in a real browser', () => {
  let app: TestApp;
  let browser: Browser;
  let page: Page;
  let projectId: string;
  let readKey: string;
  let jobId: string;
  beforeAll(async () => {
    app = await startTestApp({
      provider: 'sqlite',
      routes: ({ analytics }) => [
        dashboardRoutes,
        analyticsRoutes({ analytics }),
        analyticsAiRoutes({ analytics }),
        analyticsBreakdownRoutes({ analytics }),
        analyticsFeedbackRoutes({ analytics }),
        jobRoutes(),
      ],
      env: { APP_ID: '1', PRIVATE_KEY: privateKey, ANTHROPIC_API_KEY: 'test' },
    });
    projectId = (await app.project({ repository: 'acme/dash-docs' })).id;
    readKey = await app.key(projectId, 'read');
    const writeKey = await app.key(projectId, 'write');
    const ingest = await fetch(`${app.url}/v1/analytics/${projectId}/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${writeKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(seedEvents()),
    });
    expect(((await ingest.json()) as { accepted: number }).accepted).toBe(29);
    const job = await fetch(`${app.url}/v2/agent/${projectId}/job`, {
      method: 'POST',
      headers: { authorization: `Bearer ${writeKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'Explain the rate limits on the quickstart page' }),
    });
    jobId = ((await job.json()) as { id: string }).id;
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1200, height: 1400 } });
    await page.goto(`${app.url}/dashboard`);
    await page.fill('#project', projectId);
    await page.fill('#key', readKey);
    await page.click('#connect button[type=submit]');
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  const api = async <T>(p: string): Promise<T> =>
    (await fetch(`${app.url}${p}`, { headers: { authorization: `Bearer ${readKey}` } })).json() as Promise<T>;

  it('shows the same visitor totals, pages and agents as the API', async () => {
    await page.waitForSelector('body[data-loaded=overview]');
    const from = await page.inputValue('#date-from');
    const to = await page.inputValue('#date-to');
    const range = `dateFrom=${from}&dateTo=${to}`;
    const visitors = await api<{
      totals: { human: number; ai: number; total: number };
      visitors: { path: string; human: number; ai: number; total: number }[];
      hasMore: boolean;
    }>(`/v1/analytics/${projectId}/visitors?${range}&limit=20`);
    expect(visitors.totals).toEqual({ human: 26, ai: 2, total: 28 });
    expect(await page.textContent('#total-human')).toBe('26');
    expect(await page.textContent('#total-ai')).toBe('2');
    expect(await page.textContent('#total-all')).toBe('28');

    const rows = await page.$$eval('#pages tbody tr', (trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].map((td: any) => td.textContent)),
    );
    expect(rows).toEqual(visitors.visitors.map((r) => [r.path, String(r.human), String(r.ai), String(r.total)]));
    expect(rows[0]).toEqual(['/page-00', '2', '2', '4']);

    const agents = await api<{
      agents: {
        agent: string;
        kind: string;
        visitors: number;
        verifiedVisitors: number;
        unverifiableVisitors: number;
        views: number;
      }[];
      spoofed: { agent: string; visitors: number; views: number }[];
    }>(`/v1/analytics/${projectId}/agents?${range}`);
    const agentRows = await page.$$eval('#agents tbody tr', (trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].map((td: any) => td.textContent)),
    );
    expect(agentRows).toEqual(
      agents.agents.map((a) => [
        a.agent,
        a.kind,
        String(a.visitors),
        String(a.verifiedVisitors),
        String(a.unverifiableVisitors),
        String(a.views),
      ]),
    );
    const spoofedRows = await page.$$eval('#spoofed tbody tr', (trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].map((td: any) => td.textContent)),
    );
    expect(spoofedRows).toEqual(agents.spoofed.map((a) => [a.agent, String(a.visitors), String(a.views)]));
    expect(agentRows.map((r) => r[0])).toEqual(expect.arrayContaining(['GPTBot', 'ClaudeBot']));

    const chart = await page.evaluate(() => {
      const c = (
        window as unknown as {
          Chart: {
            getChart(el: Element): { data: { labels: string[]; datasets: { label: string; data: number[] }[] } };
          };
        }
      ).Chart.getChart(document.getElementById('daily-chart')!);
      return { labels: c.data.labels, human: c.data.datasets[0].data, ai: c.data.datasets[1].data };
    });
    const daily = await api<{ days: { date: string; human: number; ai: number }[] }>(
      `/v1/analytics/${projectId}/visitors/daily?${range}`,
    );
    expect(chart).toEqual({
      labels: daily.days.map((d) => d.date),
      human: daily.days.map((d) => d.human),
      ai: daily.days.map((d) => d.ai),
    });
    expect(chart.human.reduce((a, b) => a + b, 0)).toBe(26);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'dashboard-visitors.png'), fullPage: true });

    await page.click('#pages-next');
    await page.waitForFunction(() => document.getElementById('pages-position')?.textContent?.startsWith('21'));
    const second = await api<{ visitors: { path: string }[] }>(
      `/v1/analytics/${projectId}/visitors?${range}&limit=20&offset=20`,
    );
    expect(await page.$$eval('#pages tbody tr td:first-child', (tds) => tds.map((td) => td.textContent))).toEqual(
      second.visitors.map((r) => r.path),
    );
  });

  it("lists jobs and follows a job's event log live", async () => {
    await page.goto(`${app.url}/dashboard#jobs`);
    await page.waitForSelector('body[data-loaded=jobs]');
    const cells = await page.$$eval('#job-list tbody tr td', (tds) => tds.map((td) => td.textContent));
    expect(cells[0]).toBe('active');
    expect(cells[1]).toBe('Explain the rate limits on the quickstart page');
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'dashboard-jobs.png'), fullPage: true });

    await page.click('#job-list tbody tr a');
    await page.waitForSelector('body[data-loaded=job]');
    await page.waitForSelector('#job-live:not([hidden])');
    const before = await page.$$eval('#job-events li', (lis) => lis.length);
    await appendEvent({
      db: app.ctx.db,
      clock: app.ctx.clock,
      jobId,
      type: 'tool_call',
      data: { tool: 'str_replace_based_edit_tool', path: 'quickstart.mdx' },
    });
    await page.waitForFunction((n) => document.querySelectorAll('#job-events li').length > n, before);
    expect(await page.textContent('#job-events li:last-child')).toContain('path=quickstart.mdx');
    expect(await page.textContent('[data-field=prompt]')).toBe('Explain the rate limits on the quickstart page');
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'dashboard-job.png'), fullPage: true });
  });

  it('keeps the key in this browser session only', async () => {
    const stored = await page.evaluate(() => ({
      session: sessionStorage.getItem('scribe.key'),
      local: localStorage.length,
      cookies: document.cookie,
    }));
    expect(stored).toEqual({ session: readKey, local: 0, cookies: '' });
  });
});
