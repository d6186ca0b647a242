import type { Browser } from 'playwright-core';
import { reply, text } from '../../support/anthropic-server.js';
import { launchBrowser } from '../../support/browser.js';
import { buildDashboard, dashboardBundleStale } from '../../../scripts/build-dashboard.js';
import { waitFor } from '../../support/wait-for.js';
import { forTask } from '../../support/e2e-harness.js';
import { examplePayload, startGitHubE2E, type GitHubE2E } from '../../support/github-harness.js';

// Browser globals, for the functions page.evaluate runs inside the page (the project compiles without the DOM lib).
declare const document: any; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('the dashboard shows automations and their runs', () => {
  let e2e: GitHubE2E;
  let browser: Browser;
  afterAll(async () => {
    await browser?.close();
    await e2e?.close();
  });

  it('lists the loaded automations, the problems and the runs the API lists', async () => {
    e2e = await startGitHubE2E('sqlite');
    const docs = 'acme/dash-automations';
    const config =
      'automations:\n  - id: nightly\n    on: { schedule: "0 3 * * *" }\n    prompt: Tidy the docs.\n  - id: broken\n    on: { schedule: "0 25 * * *" }\n    prompt: never\n' +
      '  - id: readers\n    on: { feedback: { thumbsDown: 2, comment: true, pages: ["/guides/**"] } }\n    prompt: Fix what readers report.\n';
    e2e.github.createRepository(docs, { 'index.md': '# Docs\n', '.scribe/automations.yml': config });
    e2e.github.addInstallation(91, [docs]);
    const installed = examplePayload('installation', 'created');
    installed.installation.id = 91;
    installed.repositories = [{ id: 1, node_id: 'R', name: 'dash-automations', full_name: docs, private: true }];
    await e2e.send('installation', installed);
    const projectId = (await e2e.database.db.project.findUniqueOrThrow({ where: { repository: docs } })).id;
    const key = await e2e.keyFor(projectId);
    e2e.anthropic.script([reply([text('Title: Tidy\n\nNothing to tidy.')])], forTask('Tidy the docs.'));
    const started = await e2e.api(`/v1/workflow/${projectId}/nightly/trigger`, { key, method: 'POST' });
    await waitFor(
      async () =>
        (await e2e.api(`/v1/automations/${projectId}/runs`, { key })).body.runs[0].status === 'no_changes'
          ? true
          : undefined,
      'the run to finish',
      30_000,
      50,
    );

    if (dashboardBundleStale()) await buildDashboard();
    browser = await launchBrowser();
    const page = await browser.newPage();
    await page.goto(`${e2e.scribe.url}/dashboard#automations`);
    await page.fill('#project', projectId);
    await page.fill('#key', key);
    await page.click('#connect button[type=submit]');
    await page.waitForSelector('#automation-runs');
    const rows = (selector: string) =>
      page.$$eval(selector, (trs) =>
        trs.map((tr: any) => [...tr.querySelectorAll('td')].map((td: any) => td.textContent)),
      );
    expect(await rows('#automation-list tbody tr')).toEqual([
      ['nightly', 'schedule 0 3 * * * UTC', 'Tidy the docs.'],
      ['readers', 'feedback: 2 thumbs-down or a comment on /guides/**', 'Fix what readers report.'],
    ]);
    expect(await page.$$eval('#automation-problems li', (lis) => lis.map((li: any) => li.textContent))).toEqual([
      'Not loaded: broken: schedule: invalid value for hour: 25',
    ]);
    const [run] = await rows('#automation-runs tbody tr');
    expect(run[0]).toBe('no changes');
    expect(run.slice(1, 3)).toEqual(['nightly', 'manual']);
    expect(run[4]).toBe(started.body.jobId);
    // one page of runs: no pager
    expect(await page.$('#runs-position')).toBeNull();
    await page.click('#automation-runs tbody tr a');
    await page.waitForSelector('[data-field=status]');
    expect(await page.evaluate(() => document.getElementById('job-title').textContent)).toBe(
      `Job ${started.body.jobId}`,
    );
  });
});
