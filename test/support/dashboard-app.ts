import path from 'node:path';
import type { Page } from 'playwright-core';
import { analyticsRoutes } from '../../src/http/routes/analytics.js';
import { analyticsAiRoutes } from '../../src/http/routes/analytics-ai.js';
import { analyticsBreakdownRoutes } from '../../src/http/routes/analytics-breakdowns.js';
import { analyticsFeedbackRoutes } from '../../src/http/routes/analytics-feedback.js';
import { automationRoutes } from '../../src/http/routes/automations.js';
import { dashboardRoutes } from '../../src/http/routes/dashboard.js';
import { outgoingWebhookRoutes } from '../../src/http/routes/outgoing-webhooks.js';
import { outcomesFor } from './outcome-routes.js';
import type { RouteModule } from '../../src/http/app.js';
import { buildDashboard, dashboardBundleStale } from '../../scripts/build-dashboard.js';
import { testAppPrivateKey } from './app-private-key.js';
import { SCREENSHOT_DIR } from './browser.js';
import { jobRoutes, startTestApp, type TestApp, type TestServices } from './test-app.js';

// Browser globals, for the functions page.evaluate runs inside the page (the project compiles without the DOM lib).
declare const document: any;

export const VIEWPORTS = { desktop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } } as const;

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const bot = (name: string) =>
  `Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ${name}/1.0; +https://example.com/bot)`;

const DAY = 86_400_000;
const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
const at = (daysAgo: number, hour = 9) => new Date(today - daysAgo * DAY + hour * 3_600_000);

export interface DashboardApp {
  app: TestApp;
  projectId: string;
  readKey: string;
  writeKey: string;
  close(): Promise<void>;
}

/**
 * The dashboard with the read routes it uses, as main.ts mounts them, on a fresh database; `configured` sets the
 * GitHub App and model settings agent jobs need (the jobs view says which are missing otherwise). The bundle is
 * built first when its sources changed.
 */
export async function startDashboardApp(params: {
  configured: boolean;
  routes?: (services: TestServices) => RouteModule[];
}): Promise<DashboardApp> {
  if (dashboardBundleStale()) await buildDashboard();
  const app = await startTestApp({
    provider: 'sqlite',
    routes: (services) => {
      const outcomes = outcomesFor(services);
      return [
        dashboardRoutes,
        analyticsRoutes(services),
        analyticsAiRoutes(services),
        analyticsBreakdownRoutes(services),
        analyticsFeedbackRoutes(services),
        jobRoutes({ outcomes: outcomes.of }),
        automationRoutes({ automations: null }),
        outgoingWebhookRoutes(),
        outcomes.routes,
        ...(params.routes?.(services) ?? []),
      ];
    },
    env: params.configured ? { APP_ID: '1', PRIVATE_KEY: testAppPrivateKey(), ANTHROPIC_API_KEY: 'test' } : {},
  });
  const projectId = (await app.project({ repository: `acme/dash-docs-${params.configured ? 'a' : 'b'}` })).id;
  return {
    app,
    projectId,
    readKey: await app.key(projectId, 'read'),
    writeKey: await app.key(projectId, 'write'),
    close: () => app.close(),
  };
}

async function post(d: DashboardApp, what: string, body: string, contentType = 'application/json') {
  const res = await fetch(`${d.app.url}/v1/analytics/${d.projectId}/${what}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${d.writeKey}`, 'content-type': contentType },
    body,
  });
  if (res.status !== 202) throw new Error(`${what}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<{ accepted: number }>;
}

/**
 * Known traffic: 25 pages read by people two days ago (one more page than the pager's 20), Firefox, AI crawlers,
 * assistants and agents yesterday, two people sent by AI assistants, four people in the previous period (the
 * trends), two AI misses from a log, three feedback entries and two searches.
 */
export async function seedTraffic(d: DashboardApp): Promise<void> {
  const events: object[] = [];
  for (let i = 0; i < 25; i++)
    events.push({
      timestamp: at(2),
      path: `/page-${String(i).padStart(2, '0')}`,
      userAgent: CHROME,
      ip: `198.51.100.${i + 1}`,
    });
  for (let i = 0; i < 4; i++)
    events.push({ timestamp: at(40), path: '/page-00', userAgent: CHROME, ip: `192.0.2.${50 + i}` });
  events.push(
    { timestamp: at(1), path: '/page-00', userAgent: FIREFOX, ip: '198.51.100.200' },
    { timestamp: at(1), path: '/page-00', userAgent: CHROME, ip: '192.0.2.2', referrer: 'https://chatgpt.com/' },
    {
      timestamp: at(1),
      path: '/page-01',
      userAgent: CHROME,
      ip: '192.0.2.3',
      referrer: 'https://www.perplexity.ai/search',
    },
    { timestamp: at(1), path: '/page-00', userAgent: bot('GPTBot'), ip: '203.0.113.5' },
    { timestamp: at(1), path: '/page-01', userAgent: bot('GPTBot'), ip: '203.0.113.5' },
    { timestamp: at(1), path: '/page-01', userAgent: bot('OAI-SearchBot'), ip: '203.0.113.6' },
    { timestamp: at(1), path: '/page-00', userAgent: bot('ChatGPT-User'), ip: '203.0.113.7' },
    { timestamp: at(1), path: '/page-02', userAgent: bot('Claude-Code'), ip: '203.0.113.8' },
    { timestamp: at(0, 0), path: '/page-00', userAgent: bot('ClaudeBot'), ip: '203.0.113.9' },
  );
  await post(d, 'events', JSON.stringify(events));
  const clf = at(1)
    .toUTCString()
    .replace(/^\w+, (\d+) (\w+) (\d+) ([\d:]+) GMT$/, '$1/$2/$3:$4 +0000');
  const log = [
    `203.0.113.5 - - [${clf}] "GET /gone.md?ref=llms HTTP/1.1" 404 0 "-" "${bot('GPTBot')}"`,
    `203.0.113.9 - - [${clf}] "GET /broken HTTP/1.1" 502 0 "-" "${bot('ClaudeBot')}"`,
  ];
  await post(d, 'logs', `${log.join('\n')}\n`, 'text/plain');
  await post(
    d,
    'feedback',
    JSON.stringify([
      {
        timestamp: at(1).toISOString(),
        path: '/page-03',
        helpful: false,
        comment: 'The rate limits are not explained',
        ip: '192.0.2.9',
      },
      {
        timestamp: at(1, 10).toISOString(),
        path: '/page-04',
        helpful: false,
        comment: 'Example fails on Node 20',
        ip: '192.0.2.10',
      },
      { timestamp: at(1, 11).toISOString(), path: '/page-03', helpful: true, ip: '192.0.2.11' },
    ]),
  );
  await post(
    d,
    'searches',
    JSON.stringify([
      { timestamp: at(1).toISOString(), query: 'rate limits', ip: '192.0.2.9' },
      { timestamp: at(1).toISOString(), query: 'rate limits', clickedPath: '/page-03', ip: '192.0.2.9' },
    ]),
  );
}

/** Opens the dashboard and connects with `key` (the form a new user fills in). */
export async function connect(page: Page, d: DashboardApp, key: string, hash = ''): Promise<void> {
  await page.goto(`${d.app.url}/dashboard${hash}`);
  await page.fill('#project', d.projectId);
  await page.fill('#key', key);
  await page.click('#connect button[type=submit]');
}

/** The cells' text of a table's body rows. */
export function tableRows(page: Page, id: string): Promise<string[][]> {
  return page.$$eval(`#${id} tbody tr`, (trs) =>
    trs.map((tr) => [...tr.querySelectorAll('td')].map((td: any) => td.textContent.trim())),
  );
}

/** How far the page is wider than the window (0 when nothing scrolls sideways). */
export function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

export const screenshot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(SCREENSHOT_DIR, `dashboard-${name}.png`), fullPage: true });
