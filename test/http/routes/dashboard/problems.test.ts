import type { Browser, Page } from 'playwright-core';
import { problemRoutesFor } from '../../../support/problem-routes.js';
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

/** The docs site's pages, as the problems queue reads them from the docs repository (redirect candidates). */
const SITE = [
  { path: '/page-00', file: 'docs/page-00.mdx', title: 'Getting started' },
  { path: '/page-03', file: 'docs/page-03.mdx', title: 'Rate limits' },
];

/**
 * The docs lead's loop over the problems API: the overview's top problems, the queue filtered, dismissed and
 * reopened, a fix started as a job that names its cause, and a page's story, each equal to what the API answers.
 */
describe('the dashboard: problems and pages', () => {
  let d: DashboardApp;
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    d = await startDashboardApp({
      configured: true,
      routes: ({ analytics }) => [problemRoutesFor({ analytics, pages: SITE })],
    });
    await seedTraffic(d);
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: VIEWPORTS.desktop });
    await connect(page, d, d.readKey);
    await page.waitForSelector('#top-problems, #top-problems-empty, [data-empty]');
  });
  afterAll(async () => {
    await browser?.close();
    await d?.close();
  });

  const api = async (p: string): Promise<any> =>
    (
      await fetch(`${d.app.url}/v1/analytics/${d.projectId}/${p}`, {
        headers: { authorization: `Bearer ${d.readKey}` },
      })
    ).json();
  const range = async () =>
    `dateFrom=${await page.inputValue('#date-from')}&dateTo=${await page.inputValue('#date-to')}`;
  const go = async (hash: string, ready: string) => {
    await page.evaluate((h) => (document.location.hash = h), hash);
    await page.waitForSelector(ready);
  };

  it('overview: the top open problems are the API’s first five', async () => {
    const { problems } = await api(`problems?${await range()}&status=open&limit=5`);
    expect(problems.length).toBeGreaterThan(0);
    const rows = await tableRows(page, 'top-problems');
    expect(rows.map((r) => r[2])).toEqual(problems.map((p: any) => String(p.readers)));
    expect(rows.map((r) => r[0])).toEqual(problems.map((p: any) => expect.stringContaining(p.title)));
    await screenshot(page, 'overview-problems-desktop');
  });

  it('problems: filtered by kind, one dismissed with a reason (asking for a write key), then reopened', async () => {
    await go('#problems', '#problems');
    const q = await range();
    const open = await api(`problems?${q}&status=open&limit=20`);
    expect((await tableRows(page, 'problems')).map((r) => r[3])).toEqual(
      open.problems.map((p: any) => String(p.readers)),
    );
    const kind = open.problems[0].kind;
    await page.selectOption('#problem-kind', kind);
    const ofKind = await api(`problems?${q}&status=open&kind=${kind}&limit=20`);
    await page.waitForFunction(
      (n) => document.querySelectorAll('#problems tbody tr').length === n,
      ofKind.problems.length,
    );
    expect((await tableRows(page, 'problems')).map((r) => r[1])).toEqual(
      ofKind.problems.map((p: any) => expect.stringContaining(p.title)),
    );

    // select all checks every row, and unchecking it clears them
    await page.check('#select-all');
    expect(await page.$$eval('#problems tbody input:checked', (els) => els.length)).toBe(ofKind.problems.length);
    expect(await page.textContent('fieldset.actions legend')).toBe(`${ofKind.problems.length} selected`);
    await page.uncheck('#select-all');

    const target = ofKind.problems[0];
    await page.check(`input[data-problem="${target.id}"]`);
    await page.fill('#dismiss-reason', 'covered by the changelog');
    await page.click('#dismiss');
    await page.waitForSelector('#write-key');
    await page.fill('#write-key', d.writeKey);
    await page.click('form.write-key button[type=submit]');
    await page.waitForFunction((id) => !document.querySelector(`input[data-problem="${id}"]`), target.id);
    const dismissed = await api(`problems?${q}&status=dismissed&limit=20`);
    expect(dismissed.problems.map((p: any) => [p.id, p.dismissal?.reason])).toEqual([
      [target.id, 'covered by the changelog'],
    ]);

    await page.selectOption('#problem-status', 'dismissed');
    await page.waitForSelector(`input[data-problem="${target.id}"]`);
    expect(await page.textContent('#problems tbody')).toContain('covered by the changelog');
    await page.check(`input[data-problem="${target.id}"]`);
    await page.click('#reopen');
    await page.waitForSelector('[data-empty]');
    const reopened = await api(`problems?${q}&status=open&limit=100`);
    expect(reopened.problems.map((p: any) => p.id)).toContain(target.id);
  });

  it('problems: a fix starts one job, whose page names the problems it was started for', async () => {
    await page.selectOption('#problem-status', 'open');
    await page.selectOption('#problem-kind', '');
    await page.waitForSelector('#problems input[data-problem]');
    const q = await range();
    const first = (await api(`problems?${q}&status=open&limit=20`)).problems[0];
    await page.check(`input[data-problem="${first.id}"]`);
    await page.fill('#fix-instructions', 'Keep the tone of the guide');
    await page.click('#fix');
    await page.waitForSelector('p[role=status] a');
    await page.click('p[role=status] a');
    await page.waitForSelector('[data-field=cause]');
    expect(await page.textContent('[data-field=cause]')).toContain(first.title);
    const after = await api(`problems?${q}&status=in_progress&limit=20`);
    expect(after.problems.map((p: any) => p.id)).toContain(first.id);
  });

  it("a page's story equals the API: readers against the previous range, agents and comments", async () => {
    await go(`#page?path=${encodeURIComponent('/page-03')}`, '#page-human');
    const story = await api(`page?path=%2Fpage-03&${await range()}`);
    expect(await page.textContent('#page-human')).toBe(String(story.totals.human));
    expect(await page.textContent('#page-ai')).toBe(String(story.totals.ai));
    expect(await page.textContent('#page-thumbs-down')).toBe(String(story.feedback.thumbsDown));
    expect((await tableRows(page, 'page-comments')).map((r) => r[1])).toEqual(
      story.feedback.comments.map((c: any) => c.comment),
    );
    expect(story.feedback.comments.map((c: any) => c.comment)).toContain('The rate limits are not explained');
  });

  it("a page's story: Scribe's merged pull request that changed it, with its outcome on the page equal to the job's", async () => {
    const created = await fetch(`${d.app.url}/v2/agent/${d.projectId}/job`, {
      method: 'POST',
      headers: { authorization: `Bearer ${d.writeKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'Say what the first steps are' }),
    });
    const jobId = ((await created.json()) as { id: string }).id;
    const { db, clock } = d.app.ctx;
    const mergedAt = new Date(Date.now() - 3 * 86_400_000);
    // what a job that edited the page's file and whose pull request merged leaves behind
    await db.agentJob.update({
      where: { id: jobId },
      data: { prLink: 'https://github.example/acme/dash-docs-a/pull/9', prNumber: 9 },
    });
    await db.agentJobEvent.create({
      data: {
        jobId,
        type: 'tool_call',
        data: JSON.stringify({ command: 'str_replace', path: 'docs/page-00.mdx', ok: true }),
        createdAt: mergedAt,
      },
    });
    await db.jobPullRequest.create({
      data: {
        jobId,
        repository: 'acme/dash-docs-a',
        number: 9,
        state: 'closed',
        merged: true,
        mergedAt,
        updatedAt: mergedAt,
      },
    });
    await recordDocsMerge({
      db,
      clock,
      merge: {
        jobId,
        projectId: d.projectId,
        repository: 'acme/dash-docs-a',
        number: 9,
        mergedAt,
        pages: [{ path: '/page-00', change: 'edited' }],
      },
    });
    await go('#overview', '#total-all');
    await go(`#page?path=${encodeURIComponent('/page-00')}`, '#page-pulls tbody tr');
    const { outcome } = (await (
      await fetch(`${d.app.url}/v2/agent/${d.projectId}/job/${jobId}`, {
        headers: { authorization: `Bearer ${d.readKey}` },
      })
    ).json()) as any;
    const seven = outcome.windows.find((w: { days: number }) => w.days === 7);
    const here = seven.pages.find((p: { path: string }) => p.path === '/page-00');
    const expected = `${here.verdict}: people ${here.humanVisitors.before} → ${here.humanVisitors.after} (7 d, ${seven.daysSoFar} so far)`;
    await page.waitForFunction(
      (text) => document.querySelector('#page-pulls tbody tr td:last-child')?.textContent === text,
      expected,
    );
    expect((await tableRows(page, 'page-pulls'))[0]).toEqual([
      'acme/dash-docs-a#9',
      'merged',
      // opened when the job was created, just now
      expect.stringMatching(/^\d+ s ago$/),
      'job',
      expected,
    ]);
    expect(here.humanVisitors.after).toBeGreaterThan(0);
  });

  it.each(Object.entries(VIEWPORTS))('problems and a page fit a %s screen', async (size, viewport) => {
    const view = await browser.newPage({ viewport });
    await connect(view, d, d.readKey);
    for (const [name, hash, ready] of [
      ['problems', '#problems', '#problems, [data-empty]'],
      ['page', `#page?path=${encodeURIComponent('/page-00')}`, '#page-human'],
    ]) {
      await view.evaluate((h) => (document.location.hash = h), hash);
      await view.waitForSelector(ready);
      expect({ name, overflow: await horizontalOverflow(view) }).toEqual({ name, overflow: 0 });
      await screenshot(view, `${name}-${size}`);
    }
    await view.close();
  });
});
