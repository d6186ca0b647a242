import type { Browser } from 'playwright-core';
import { buildDashboard, dashboardBundleStale } from '../../../../scripts/build-dashboard.js';
import { edit, reply, text } from '../../../support/anthropic-server.js';
import { launchBrowser } from '../../../support/browser.js';
import { horizontalOverflow, screenshot, tableRows, VIEWPORTS } from '../../../support/dashboard-app.js';
import { forTask, startE2E, type E2E } from '../../../support/e2e-harness.js';

declare const document: any;

/**
 * A real job on a real Scribe process (the GitHub and model stand-ins), followed from the dashboard: its events
 * arrive while it runs, and the page turns to its pull request when it ends, without a reload.
 */
describe('the dashboard follows a running job to its pull request', () => {
  let e2e: E2E;
  let browser: Browser;
  beforeAll(async () => {
    if (dashboardBundleStale()) await buildDashboard();
    e2e = await startE2E('sqlite');
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await e2e?.close();
  });

  it('shows the edit live, then the completed job and its pull request, at both sizes', async () => {
    e2e.anthropic.script(
      [
        reply([
          edit({
            command: 'str_replace',
            path: 'guide/start.md',
            old_str: 'Install the CLI.\n',
            new_str: 'Install the CLI.\n\nThen run `acme init`.\n',
          }),
        ]),
        // the model "thinks" before its last answer: the page is watching while the job is still active
        reply([text('Title: Explain acme init\n\nAdded the init step to the start guide.')], { delayMs: 2500 }),
      ],
      forTask('[dashboard] Mention acme init'),
    );
    const page = await browser.newPage({ viewport: VIEWPORTS.desktop });
    await page.goto(`${e2e.scribe.url}/dashboard`);
    await page.fill('#project', e2e.projectId);
    await page.fill('#key', e2e.key);
    await page.click('#connect button[type=submit]');
    await page.waitForSelector('#total-all');
    const created = await e2e.createJob({ prompt: '[dashboard] Mention acme init in the start guide' });
    await page.evaluate((id) => (document.location.hash = `#job/${id}`), created.id);

    await page.waitForSelector('#job-events li:has-text("tool_call")');
    expect(await page.textContent('#job-events li:has-text("tool_call")')).toContain('path=guide/start.md');
    expect(await page.textContent('[data-field=status]')).toBe('active');
    expect(await page.isVisible('#job-live')).toBe(true);

    await page.waitForSelector('[data-field=status]:has-text("completed")');
    const job = await e2e.job(created.id);
    expect(job.prLink).toBe(e2e.github.pulls.find((p) => p.head === created.source.ref)!.html_url);
    expect(await page.getAttribute('[data-field=pr] a', 'href')).toBe(job.prLink);
    expect(await page.textContent('[data-field=summary]')).toBe('Added the init step to the start guide.');
    expect(await page.$('#job-live')).toBeNull();
    const types = await page.$$eval('#job-events li strong', (els) => els.map((e: any) => e.textContent));
    expect(types).toEqual((await e2e.events(created.id)).map((e) => e.type));
    await screenshot(page, 'job-completed-desktop');

    await page.setViewportSize(VIEWPORTS.phone);
    expect(await horizontalOverflow(page)).toBe(0);
    await screenshot(page, 'job-completed-phone');
    await page.evaluate(() => (document.location.hash = '#jobs'));
    await page.waitForSelector('#job-list');
    const [row] = await tableRows(page, 'job-list');
    expect([row[0], row[1], row[3]]).toEqual([
      'completed',
      '[dashboard] Mention acme init in the start guide',
      job.prLink!.replace(/^https?:\/\/[^/]+\//, '').replace('/pull/', '#'),
    ]);
    expect(await horizontalOverflow(page)).toBe(0);
    await page.close();
  });
});
