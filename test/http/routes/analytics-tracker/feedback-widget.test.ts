import path from 'node:path';
import type { Browser } from 'playwright-core';
import type { RouteModule } from '../../../../src/http/app.js';
import { analyticsRoutes } from '../../../../src/http/routes/analytics.js';
import { analyticsAiRoutes } from '../../../../src/http/routes/analytics-ai.js';
import { analyticsFeedbackRoutes } from '../../../../src/http/routes/analytics-feedback.js';
import { dashboardRoutes } from '../../../../src/http/routes/dashboard.js';
import { analyticsBreakdownRoutes } from '../../../../src/http/routes/analytics-breakdowns.js';
import { launchBrowser, SCREENSHOT_DIR } from '../../../support/browser.js';
import { startTestApp, type TestApp } from '../../../support/test-app.js';
import { compatibleValidators } from '../../../support/compatible-schemas.js';

// Browser globals, for the functions page.evaluate runs inside the page (the project compiles without the DOM lib).
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const window: any;
declare const document: any;
declare const Navigator: any;

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const v = compatibleValidators();

/** A docs page embedding the tracker as a site would: the queue stub, a search made before the script loaded, the widget. */
const docsSite =
  (projectId: () => string): RouteModule =>
  (router) => {
    router.get('/site/guide', (_req, res) => {
      res.type('html').send(`<!doctype html><html><head><title>Guide</title>
<script>window.scribe = window.scribe || function () { (scribe.q = scribe.q || []).push(arguments); }; scribe('search', { query: 'Rate  Limits' });</script>
<script defer src="/js/scribe.js" data-project="${projectId()}" data-feedback="#feedback"></script>
</head><body><main><h1>Guide</h1><p>Text.</p><div id="feedback"></div></main></body></html>`);
    });
  };

describe('the feedback widget and search API in a real browser', () => {
  let app: TestApp;
  let browser: Browser;
  let projectId = '';
  let read: string;

  beforeAll(async () => {
    app = await startTestApp({
      provider: 'sqlite',
      routes: ({ analytics }) => [
        analyticsRoutes({ analytics }),
        analyticsAiRoutes({ analytics }),
        analyticsBreakdownRoutes({ analytics }),
        analyticsFeedbackRoutes({ analytics }),
        dashboardRoutes,
        docsSite(() => projectId),
      ],
    });
    projectId = (await app.project({ hostnames: ['127.0.0.1'] })).id;
    read = await app.key(projectId, 'read');
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app.close();
  });

  const api = async <T>(p: string) =>
    (await (
      await fetch(`${app.url}/v1/analytics/${projectId}${p}`, { headers: { authorization: `Bearer ${read}` } })
    ).json()) as T;
  const until = async <T>(p: string, done: (body: T) => boolean): Promise<T> => {
    for (let i = 0; i < 100; i++) {
      const body = await api<T>(p);
      if (done(body)) return body;
      await new Promise((r) => setTimeout(r, 50));
    }
    return api<T>(p);
  };

  it('renders, posts a vote and its comment as one submission, and records searches and result clicks', async () => {
    const page = await browser.newPage({ userAgent: CHROME });
    // the tracker stays silent under automation (navigator.webdriver); this test plays a person's browser
    await page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'webdriver', { get: () => false }));
    await page.goto(`${app.url}/site/guide`);
    await page.waitForSelector('#feedback .scribe-feedback');
    expect(await page.textContent('.scribe-feedback-question')).toBe('Was this page helpful?');
    expect(await page.isVisible('.scribe-feedback textarea')).toBe(false);
    expect(await page.evaluate(() => document.cookie)).toBe('');

    await page.click('.scribe-feedback-no');
    expect(await page.getAttribute('.scribe-feedback-no', 'aria-pressed')).toBe('true');
    const vote = await until<{ feedback: { helpful: boolean; source: string }[] }>(
      '/feedback',
      (b) => b.feedback.length > 0,
    );
    expect(vote.feedback.map((f) => [f.source, f.helpful])).toEqual([['thumbs_only', false]]);

    const comment = '<img src=x onerror="window.hacked=1"> Step 3 is missing';
    await page.fill('.scribe-feedback textarea', comment);
    await page.click('.scribe-feedback button[type=submit]');
    await page.waitForSelector('.scribe-feedback-thanks', { state: 'visible' });
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'feedback-widget.png'), fullPage: true });
    const listed = await until<{
      feedback: { comment: string | null; source: string; helpful: boolean; path: string }[];
    }>('/feedback', (b) => b.feedback[0]?.comment !== null);
    expect(v.feedback(listed)).toBe(true);
    expect(listed.feedback).toEqual([
      expect.objectContaining({ path: '/site/guide', source: 'contextual', helpful: false, comment }),
    ]);

    await page.evaluate(() => window.scribe('search-click', { query: 'rate limits', path: '/site/limits' }));
    await page.evaluate(() => window.scribe('search', { query: 'webhooks' }));
    const searches = await until<{
      searches: { searchQuery: string; hits: number; ctr: number; topClickedPage: string | null }[];
      totalSearches: number;
    }>('/searches', (b) => b.totalSearches === 2 && b.searches.some((s) => s.topClickedPage !== null));
    expect(v.searches(searches)).toBe(true);
    expect(
      searches.searches.map(({ searchQuery, hits, ctr, topClickedPage }) => ({
        searchQuery,
        hits,
        ctr,
        topClickedPage,
      })),
    ).toEqual([
      { searchQuery: 'rate limits', hits: 1, ctr: 1, topClickedPage: '/site/limits' },
      { searchQuery: 'webhooks', hits: 1, ctr: 0, topClickedPage: null },
    ]);
    expect(await page.evaluate(() => window.hacked)).toBeUndefined();
    await page.close();
  });

  it('shows the comment on the dashboard as text, with the searches the API reports', async () => {
    const page = await browser.newPage({ viewport: { width: 1200, height: 1600 } });
    await page.goto(`${app.url}/dashboard#feedback`);
    await page.fill('#project', projectId);
    await page.fill('#key', read);
    await page.click('#connect button[type=submit]');
    await page.waitForSelector('#feedback-list');
    await page.waitForSelector('#searches');
    const feedback = await api<{ feedback: { path: string; comment: string }[] }>('/feedback');
    const rows = await page.$$eval('#feedback-list tbody tr', (trs) =>
      trs.map((tr: any) => [...tr.querySelectorAll('td')].slice(0, 3).map((td: any) => td.textContent)),
    );
    expect(rows).toEqual(feedback.feedback.map((f) => [f.path, 'not helpful', f.comment]));
    expect(rows[0][2]).toContain('<img src=x');
    expect(await page.$$('#feedback-list img')).toHaveLength(0);
    expect(await page.evaluate(() => window.hacked)).toBeUndefined();
    const searches = await api<{ searches: { searchQuery: string; hits: number; topClickedPage: string | null }[] }>(
      '/searches',
    );
    const searchRows = await page.$$eval('#searches tbody tr', (trs) =>
      trs.map((tr: any) => [...tr.querySelectorAll('td')].map((td: any) => td.textContent)),
    );
    expect(searchRows).toEqual(
      searches.searches.map((s) => [
        s.searchQuery,
        String(s.hits),
        s.topClickedPage ? '100%' : '0%',
        s.topClickedPage ?? 'none clicked',
      ]),
    );
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'dashboard-feedback.png'), fullPage: true });
    await page.close();
  });
});
