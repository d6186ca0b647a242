import fs from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { appendEvent } from '../../../../src/jobs/job-store.js';
import { createSubscription } from '../../../../src/notifications/subscriptions.js';
import { recordDocsMerge } from '../../../../src/outcomes/merge-store.js';
import { launchBrowser } from '../../../support/browser.js';
import {
  connect,
  type DashboardApp,
  horizontalOverflow,
  screenshot,
  seedTraffic,
  startDashboardApp,
  tableRows,
  VIEWPORTS,
} from '../../../support/dashboard-app.js';

declare const document: any;
declare const sessionStorage: any;
declare const localStorage: any;

/** The dashboard against a server fed known traffic: what each view shows is what the API answers. */
describe('the dashboard in a real browser', () => {
  let d: DashboardApp;
  let empty: DashboardApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let jobId: string;
  beforeAll(async () => {
    [d, empty] = await Promise.all([startDashboardApp({ configured: true }), startDashboardApp({ configured: false })]);
    await seedTraffic(d);
    const job = await fetch(`${d.app.url}/v2/agent/${d.projectId}/job`, {
      method: 'POST',
      headers: { authorization: `Bearer ${d.writeKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'Explain the rate limits on the quickstart page' }),
    });
    jobId = ((await job.json()) as { id: string }).id;
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: VIEWPORTS.desktop, acceptDownloads: true });
    page = await context.newPage();
    await connect(page, d, d.readKey);
    await page.waitForSelector('#total-all');
  });
  afterAll(async () => {
    await browser?.close();
    await d?.close();
    await empty?.close();
  });

  const api = async (p: string, key = d.readKey): Promise<any> =>
    (
      await fetch(`${d.app.url}/v1/analytics/${d.projectId}/${p}`, { headers: { authorization: `Bearer ${key}` } })
    ).json();
  const range = async () =>
    `dateFrom=${await page.inputValue('#date-from')}&dateTo=${await page.inputValue('#date-to')}`;
  const chartFigures = (id: string) =>
    page.$$eval(`[data-chart=${id}] tbody tr`, (trs) =>
      trs.map((tr) => [...tr.querySelectorAll('th, td')].map((c: any) => c.textContent)),
    );
  const go = async (hash: string, ready: string) => {
    await page.evaluate((h) => (document.location.hash = h), hash);
    await page.waitForSelector(ready);
  };

  it('overview: totals and trends, visitors per day and top pages equal the API; the pager goes past 20', async () => {
    const q = await range();
    const visitors = await api(`visitors?${q}&limit=20`);
    expect(visitors.totals).toEqual({ human: 28, ai: 5, total: 33 });
    expect(await page.textContent('#total-human')).toBe('28');
    expect(await page.textContent('#total-ai')).toBe('5');
    expect(await page.textContent('#total-all')).toBe('33');
    // the previous 30 days held the four older visitors, all human
    expect(await page.textContent('#total-human-change')).toBe('+600% (was 4)');
    expect(await page.textContent('#total-ai-change')).toBe('new (was 0)');

    const daily = await api(`visitors/daily?${q}`);
    expect(await chartFigures('daily')).toEqual(
      daily.days.map((day: any) => [day.date, String(day.human), String(day.ai)]),
    );
    expect(await tableRows(page, 'pages')).toEqual(
      visitors.visitors.map((r: any) => [r.path, String(r.human), String(r.ai), String(r.total)]),
    );
    await page.click('#pages-next');
    await page.waitForSelector('#pages-position:has-text("Pages 21–25")');
    const second = await api(`visitors?${q}&limit=20&offset=20`);
    expect((await tableRows(page, 'pages')).map((r) => r[0])).toEqual(second.visitors.map((r: any) => r.path));
    expect(second.visitors).toHaveLength(5);
  });

  it('AI traffic: agents, purposes (chart of parts only), pages read, misses and referrals equal the API', async () => {
    await go('#traffic', '#agents');
    const q = await range();
    const agents = await api(`agents?${q}`);
    expect(await tableRows(page, 'agents')).toEqual(
      agents.agents.map((a: any) => [
        a.agent,
        a.kind,
        String(a.visitors),
        String(a.verifiedVisitors),
        String(a.unverifiableVisitors),
        String(a.views),
      ]),
    );
    // the shipped range lists are older than the freshness window, so nothing is verified: the page says why
    expect(agents.agents.every((a: any) => a.verifiedVisitors === 0)).toBe(true);
    expect(await page.textContent('#verified-note')).toContain('SCRIBE_AI_RANGES_MAX_AGE_DAYS');

    const { totals } = await api(`ai/purposes?${q}`);
    const v = totals.views;
    expect(await chartFigures('purposes')).toEqual([
      ['Search / indexing', String(v.searchIndexViews)],
      ['Training', String(v.trainingViews)],
      ['Assistant', String(v.assistantViews)],
      ['Agent', String(v.agentViews)],
      ['Unidentified AI', String(v.otherAiViews - v.assistantViews - v.agentViews)],
    ]);
    // the parts add up to the AI views, which are therefore not a bar of their own
    const parts = (await chartFigures('purposes')).reduce((sum, [, n]) => sum + Number(n), 0);
    expect(parts).toBe(v.aiViews);
    const purposeRows = await tableRows(page, 'purposes');
    expect(purposeRows.map((r) => r.slice(1))).toEqual(
      [
        'humanViews',
        'aiViews',
        'searchIndexViews',
        'trainingViews',
        'otherAiViews',
        'assistantViews',
        'agentViews',
        'unverifiedAiViews',
      ].map((c) => [String(v[c]), String(totals.visitors[c])]),
    );

    const agentPages = await api(`ai/agent-pages?${q}&limit=20`);
    expect(await tableRows(page, 'agent-pages')).toEqual(
      agentPages.rows.map((r: any) => [r.agent, r.path, String(r.views), String(r.visitors)]),
    );
    const misses = await api(`ai/misses?${q}&limit=20`);
    expect(await tableRows(page, 'misses')).toEqual(
      misses.rows.map((r: any) => [r.path, r.agent, String(r.status), String(r.count)]),
    );
    expect(misses.rows.map((r: any) => r.path).sort()).toEqual(['/broken', '/gone']);
    expect(await page.textContent('#misses caption')).toContain('.md suffix');
    const referrals = await api(`ai/referrals?${q}&limit=20`);
    expect(await tableRows(page, 'referrals')).toEqual(
      referrals.assistants.map((r: any) => [r.assistant, String(r.views), String(r.visitors)]),
    );
    expect(referrals.assistants.map((r: any) => r.assistant).sort()).toEqual(['ChatGPT', 'Perplexity']);
  });

  it('AI traffic: the CSV button saves what the API exports', async () => {
    const q = await range();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click('button:has-text("Download views per page by purpose (CSV)")'),
    ]);
    const saved = fs.readFileSync((await download.path())!, 'utf8');
    const exported = await (
      await fetch(`${d.app.url}/v1/analytics/${d.projectId}/ai/purposes?${q}&format=csv`, {
        headers: { authorization: `Bearer ${d.readKey}` },
      })
    ).text();
    expect(saved).toBe(exported);
    expect(saved.split('\r\n')[0]).toBe(
      'path,humanViews,aiViews,searchIndexViews,trainingViews,otherAiViews,totalViews',
    );
  });

  it('an agent row opens the agent: its figures and the pages it read', async () => {
    await page.click('#agents tbody tr:has-text("GPTBot") td:nth-child(3)');
    await page.waitForSelector('#agent-visitors');
    expect(await page.evaluate(() => document.location.hash)).toBe('#agent?name=GPTBot');
    const q = await range();
    const gpt = (await api(`agents?${q}`)).agents.find((a: any) => a.agent === 'GPTBot');
    expect(await page.textContent('#agent-visitors')).toBe(String(gpt.visitors));
    expect(await page.textContent('#agent-views')).toBe(String(gpt.views));
    const rows = (await api(`ai/agent-pages?${q}&limit=250`)).rows.filter((r: any) => r.agent === 'GPTBot');
    expect(await tableRows(page, 'agent-pages-of')).toEqual(
      rows.map((r: any) => [r.path, String(r.views), String(r.visitors)]),
    );
    expect(rows.map((r: any) => r.path).sort()).toEqual(['/page-00', '/page-01']);
  });

  it('feedback: an entry is resolved from its table, after the read key is answered with a request for a write key', async () => {
    await go('#feedback', '#feedback-list');
    const q = await range();
    const listed = await api(`feedback?${q}&status=pending,in_progress&limit=20`);
    expect(await tableRows(page, 'feedback-list')).toHaveLength(listed.feedback.length);
    expect(listed.feedback).toHaveLength(3);
    const target = listed.feedback.find((f: any) => f.comment === 'Example fails on Node 20');
    const row = `#feedback-list tbody tr:has-text("Example fails on Node 20")`;
    await page.click(`${row} button[data-action=resolve]`);
    // the read key cannot write: the page asks for a write key instead of failing
    await page.waitForSelector('#write-key');
    expect(await page.textContent('form.write-key')).toContain('needs a write key');
    await page.fill('#write-key', d.writeKey);
    await page.click('form.write-key button[type=submit]');
    await page.waitForFunction(() => document.querySelectorAll('#feedback-list tbody tr').length === 2);
    const after = await api(`feedback?${q}&status=resolved&limit=20`);
    expect(after.feedback.map((f: any) => f.id)).toEqual([target.id]);
    expect(await tableRows(page, 'feedback-list')).toHaveLength(2);

    // the write key is kept for the tab: dismissing another asks nothing more
    await page.click('#feedback-list tbody tr:first-child button[data-action=dismiss]');
    await page.waitForFunction(() => document.querySelectorAll('#feedback-list tbody tr').length === 1);
    expect((await api(`feedback?${q}&status=dismissed&limit=20`)).feedback).toHaveLength(1);
    // and a resolved entry is reopened from the resolved list
    await page.selectOption('#feedback-status', 'resolved');
    await page.waitForSelector(`${row} button[data-action=reopen]`);
    await page.click(`${row} button[data-action=reopen]`);
    await page.waitForSelector('#feedback-list-empty, [data-empty]');
    expect((await api(`feedback?${q}&status=pending&limit=20`)).feedback.map((f: any) => f.id)).toContain(target.id);

    const byPage = await api(`feedback/by-page?${q}&limit=20`);
    expect(await tableRows(page, 'feedback-by-page')).toEqual(
      byPage.feedback.map((r: any) => [
        r.path,
        String(r.thumbsUp),
        String(r.thumbsDown),
        String(r.code),
        String(r.total),
      ]),
    );
    const searches = await api(`searches?${q}&limit=20`);
    expect((await tableRows(page, 'searches')).map((r) => r.slice(0, 2))).toEqual(
      searches.searches.map((s: any) => [s.searchQuery, String(s.hits)]),
    );
  });

  it("jobs: the list, and a job's event log followed live over the event stream", async () => {
    await go('#jobs', '#job-list');
    const cells = (await tableRows(page, 'job-list'))[0];
    expect(cells.slice(0, 2)).toEqual(['active', 'Explain the rate limits on the quickstart page']);
    expect(await page.$('#jobs-not-configured')).toBeNull();
    await page.click('#job-list tbody tr td:nth-child(3)');
    await page.waitForSelector('#job-live');
    expect(await page.textContent('[data-field=prompt]')).toBe('Explain the rate limits on the quickstart page');
    const before = await page.$$eval('#job-events li', (lis) => lis.length);
    await appendEvent({
      db: d.app.ctx.db,
      clock: d.app.ctx.clock,
      jobId,
      type: 'tool_call',
      data: { tool: 'str_replace_based_edit_tool', path: 'quickstart.mdx' },
    });
    await page.waitForFunction((n) => document.querySelectorAll('#job-events li').length > n, before);
    expect(await page.textContent('#job-events li:last-child')).toContain('path=quickstart.mdx');
  });

  it('jobs: the outgoing webhooks, and why Scribe turned one off', async () => {
    const deps = { db: d.app.ctx.db, clock: d.app.ctx.clock, policy: { allowHttp: true, allowedHosts: ['127.0.0.1'] } };
    await createSubscription(deps, {
      projectId: d.projectId,
      url: 'http://127.0.0.1:9/ci',
      events: ['job.status_changed'],
    });
    const { subscription } = await createSubscription(deps, {
      projectId: d.projectId,
      url: 'http://127.0.0.1:9/slack',
      events: ['*'],
    });
    // the state Scribe leaves a subscription in once its deliveries failed for five days (notifications/messages.ts)
    const why = 'every delivery failed for 5 days (last: HTTP 404); turned off by Scribe';
    await d.app.ctx.db.webhookSubscription.update({
      where: { id: subscription.id },
      data: { enabled: false, disabledReason: why, failingSince: new Date(Date.now() - 5 * 86_400_000) },
    });
    await go('#overview', '#total-all');
    await go('#jobs', '#webhook-list tbody tr');
    const rows = (await tableRows(page, 'webhook-list')).sort((a, b) => a[1].localeCompare(b[1]));
    expect(rows).toEqual([
      ['on', 'http://127.0.0.1:9/ci', 'job.status_changed', '–'],
      ['turned off by Scribe', 'http://127.0.0.1:9/slack', '*', why],
    ]);
  });

  it('outcomes: the merged pull requests with their verdicts and before → after equal the API', async () => {
    await recordDocsMerge({
      db: d.app.ctx.db,
      clock: d.app.ctx.clock,
      merge: {
        jobId,
        projectId: d.projectId,
        repository: 'acme/dash-docs-a',
        number: 7,
        mergedAt: new Date(Date.now() - 3 * 86_400_000),
        pages: [{ path: '/page-00', change: 'edited' }],
      },
    });
    await go('#overview', '#total-all');
    await go('#outcomes', '#outcome-list tbody tr');
    const answer: any = await (
      await fetch(`${d.app.url}/v1/analytics/${d.projectId}/outcomes?${await range()}`, {
        headers: { authorization: `Bearer ${d.readKey}` },
      })
    ).json();
    expect(answer.outcomes).toHaveLength(1);
    const { outcome } = answer.outcomes[0];
    // three days after the merge only the 7-day window has days: it is partial and decides nothing yet
    const seven = outcome.windows.find((w: { days: number }) => w.days === 7);
    expect(seven.status).toBe('partial');
    const pair = (p: { before: number; after: number }) => `${p.before} → ${p.after}`;
    expect(await tableRows(page, 'outcome-list')).toEqual([
      [
        'acme/dash-docs-a#7',
        '3 d ago',
        `${outcome.verdict} (7 d, ${seven.daysSoFar} so far)`,
        '/page-00 (edited)',
        pair(seven.total.humanVisitors),
        pair(seven.total.aiVisitors),
        pair(seven.total.misses),
      ],
    ]);
    expect(seven.total.humanVisitors.after).toBeGreaterThan(0);
    // the AI visitors' cell tells them apart by purpose on hover, as the API does
    const purposes = Object.entries(
      seven.total.aiVisitorsByPurpose as Record<string, { before: number; after: number }>,
    )
      .filter(([, p]) => p.before || p.after)
      .map(([purpose, p]) => `${{ training: 'training', assistant: 'assistants' }[purpose] ?? purpose} ${pair(p)}`);
    expect(purposes.length).toBeGreaterThan(1);
    expect(await page.getAttribute('#outcome-list tbody tr td:nth-child(6) span', 'title')).toBe(purposes.join(' · '));
    const { helped, noEffect, regressed } = answer.summary;
    expect(await page.textContent('#outcome-summary')).toMatch(
      new RegExp(`${helped}\\s*helped,\\s*${noEffect}\\s*had no effect,\\s*${regressed}\\s*regressed`),
    );
    await page.click('#outcome-list tbody tr td:nth-child(2)');
    await page.waitForSelector('#job-live');
  });

  it('a wrong key or a bad range clears the figures and shows what the API said', async () => {
    await go('#overview', '#total-all');
    await page.fill('#date-from', '2030-01-10');
    await page.fill('#date-to', '2030-01-01');
    await page.click('#apply-range');
    await page.waitForSelector('.error');
    expect(await page.textContent('.error')).toContain('dateFrom must be before dateTo');
    expect(await page.$('#total-all')).toBeNull();
    expect(await page.$$('.error')).toHaveLength(1);
    await screenshot(page, 'error-range-desktop');

    // once connected, the project and key fold away under the project's name
    expect(await page.isVisible('#key')).toBe(false);
    await page.click('.connection summary');
    await page.fill('#key', 'scribe_sk_not_a_key_at_all_0000000000000000');
    await page.click('#connect button[type=submit]');
    await page.waitForSelector('.error:has-text("API key")');
    expect(await page.$('#total-all')).toBeNull();
    expect(await page.$$('.error')).toHaveLength(1);
  });

  it('a new project says what to do next; a server without the App and model says jobs are not configured', async () => {
    const fresh = await context.newPage();
    await connect(fresh, empty, empty.readKey);
    await fresh.waitForSelector('#total-all');
    expect(await fresh.textContent('#total-all')).toBe('0');
    const steps = await fresh.textContent('.next-steps');
    expect(steps).toContain(`data-project="${empty.projectId}"`);
    expect(steps).toContain(`scribe logs import --project ${empty.projectId}`);
    await fresh.evaluate(() => (document.location.hash = '#jobs'));
    await fresh.waitForSelector('#jobs-not-configured');
    const notice = await fresh.textContent('#jobs-not-configured');
    expect(notice).toContain('set APP_ID and PRIVATE_KEY');
    expect(notice).toContain('set ANTHROPIC_API_KEY');
    expect(await fresh.textContent('#job-list')).toContain('not configured');
    await screenshot(fresh, 'empty-jobs-desktop');
    await fresh.evaluate(() => (document.location.hash = '#traffic'));
    await fresh.waitForSelector('#misses');
    expect(await fresh.textContent('#misses')).toContain('scribe logs import');
    await fresh.close();
  });

  it('keeps keys in this browser tab only', async () => {
    const stored = await page.evaluate(() => ({
      local: localStorage.length,
      cookies: document.cookie,
      write: sessionStorage.getItem('scribe.writeKey'),
    }));
    expect(stored).toEqual({ local: 0, cookies: '', write: d.writeKey });
  });

  it('keeps a chosen range across a reload of the tab, with the figures of that range', async () => {
    const view = await browser.newPage({ viewport: VIEWPORTS.desktop });
    await connect(view, d, d.readKey);
    await view.waitForSelector('#total-all');
    const to = await view.inputValue('#date-to');
    const from = new Date(Date.parse(to) - 2 * 86_400_000).toISOString().slice(0, 10);
    await view.fill('#date-from', from);
    await view.click('#apply-range');
    await view.reload();
    await view.waitForSelector('#total-all');
    expect(await view.inputValue('#date-from')).toBe(from);
    const { totals } = await api(`visitors?dateFrom=${from}&dateTo=${to}&limit=1`);
    // yesterday's and today's visitors only: the 25 people of two days ago are outside
    expect(totals).toEqual({ human: 3, ai: 5, total: 8 });
    expect(await view.textContent('#total-all')).toBe(String(totals.total));
    await view.close();
  });

  it.each(Object.entries(VIEWPORTS))(
    'every view fits a %s screen without scrolling sideways',
    async (size, viewport) => {
      const view = await browser.newPage({ viewport });
      await connect(view, d, d.readKey);
      const views: [string, string, string][] = [
        ['overview', '#overview', '#total-all'],
        ['traffic', '#traffic', '#agents'],
        ['feedback', '#feedback', '#feedback-by-page'],
        ['jobs', '#jobs', '#job-list'],
        ['job', `#job/${jobId}`, '[data-field=prompt]'],
        ['agent', '#agent?name=GPTBot', '#agent-visitors'],
      ];
      for (const [name, hash, ready] of views) {
        await view.evaluate((h) => (document.location.hash = h), hash);
        await view.waitForSelector(ready);
        expect({ hash, overflow: await horizontalOverflow(view) }).toEqual({ hash, overflow: 0 });
        await screenshot(view, `${name}-${size}`);
      }
      await view.close();
    },
  );

  it('is usable from the keyboard: a skip link first, then the views, with a visible focus ring', async () => {
    const view = await browser.newPage({ viewport: VIEWPORTS.phone });
    await connect(view, d, d.readKey);
    await view.waitForSelector('#total-all');
    // opened again, as a returning user would: the key is kept for the tab, and focus starts at the top
    await view.reload();
    await view.waitForSelector('#total-all');
    await view.keyboard.press('Tab');
    expect(await view.evaluate(() => document.activeElement.textContent)).toBe('Skip to content');
    await view.keyboard.press('Tab');
    const focused = await view.evaluate(() => ({
      text: document.activeElement.textContent,
      outline: getComputedStyle(document.activeElement).outlineStyle,
    }));
    expect(focused).toEqual({ text: 'Overview', outline: 'solid' });
    await view.keyboard.press('Tab');
    await view.keyboard.press('Enter');
    await view.waitForSelector('#problems, .error, [data-empty]');
    expect(await view.evaluate(() => document.location.hash)).toBe('#problems');
    expect(
      await view.$$eval(
        'input, select, textarea',
        (els) => els.filter((e: any) => !e.labels?.length && !e.getAttribute('aria-label')).length,
      ),
    ).toBe(0);
    await view.close();
  });
});

declare function getComputedStyle(element: unknown): { outlineStyle: string };
