import { edit, reply, text } from '../../support/anthropic-server.js';
import { PROVIDERS } from '../../support/databases.js';
import { waitFor } from '../../support/wait-for.js';
import { forTask } from '../../support/e2e-harness.js';
import {
  checkRunActionPayload,
  deliverTo,
  examplePayload,
  pullCommentPayload,
  pullRequestPayload,
  startGitHubE2E,
  type GitHubE2E,
} from '../../support/github-harness.js';
import type { PullRequest } from '../../support/github-host.js';
import { openApiConformance } from '../../support/openapi-conformance.js';
import { launchBrowser } from '../../support/browser.js';
import { buildDashboard, dashboardBundleStale } from '../../../scripts/build-dashboard.js';
import { runCli } from '../../../src/cli/run-cli.js';
import type { CliIo } from '../../../src/cli/command.js';
import { startScribe } from '../../../src/main.js';
import { createLogger } from '../../../src/logger.js';

// Browser globals, for the functions page.evaluate runs inside the page (the project compiles without the DOM lib).
declare const document: any; // eslint-disable-line @typescript-eslint/no-explicit-any

const INSTALLATION = 83;
const DOCS_REPO = 'acme/docs';
const SOURCE_REPO = 'acme/api';
const CONFIG = `automations:
  - id: review-api
    on:
      pull_request:
        repository: ${SOURCE_REPO}
    prompt: Keep the CLI reference true to the code.
`;
const DOCS = {
  '.scribe/automations.yml': CONFIG,
  'docs.json': `${JSON.stringify({ name: 'Acme', navigation: [{ group: 'Start', pages: ['index', 'cli'] }] }, null, 2)}\n`,
  'index.mdx': '---\ntitle: Home\n---\n\n# Acme docs\n',
  'cli.md': '# CLI\n\nPass `--verbose` for more output.\n',
};
const SOURCE = { 'src/cli.ts': "export const flags = ['--verbose'];\n" };
const final = (title: string, summary: string) => reply([text(`Title: ${title}\n\n${summary}`)]);

describe.each(PROVIDERS)('docs drafts of source pull requests on %s', (provider) => {
  let e2e: GitHubE2E;
  let projectId: string;
  let key: string;
  let source: PullRequest;
  const runs = async () => (await e2e.api(`/v1/automations/${projectId}/runs?automation=review-api`, { key })).body;
  const settledRuns = (count: number) =>
    waitFor(
      async () => {
        const body = await runs();
        return body.runs.length >= count && body.runs.every((r: { status: string }) => r.status !== 'running')
          ? body.runs
          : undefined;
      },
      `${count} settled runs`,
      30_000,
      50,
    );
  const docsPulls = () => e2e.github.pulls.filter((p) => p.repository === DOCS_REPO);
  const commentsOn = (repository: string, number: number) =>
    e2e.github.comments.filter((c) => c.repository === repository && c.number === number).map((c) => c.body);
  const pullEvent = (pr: PullRequest, action: 'opened' | 'synchronize' | 'closed' | 'reopened', before?: string) =>
    pullRequestPayload({
      action,
      repository: pr.repository,
      installationId: INSTALLATION,
      pull: e2e.github.pullJson(pr.repository, pr.number),
      before,
    });
  const pressDraft = (pr: PullRequest, sender: string) =>
    checkRunActionPayload({
      github: e2e.github,
      pr,
      installationId: INSTALLATION,
      sender,
      checkRun: checkRunOf(pr),
      listPull: pr.number !== 1 && !pr.fork,
    });
  /** the review's check run on the pull request's head */
  const checkRunOf = (pr: PullRequest) => {
    const head = e2e.github.pullJson(pr.repository, pr.number).head.sha;
    return e2e.github.checkRuns.findLast((r) => r.repository === pr.repository && r.head_sha === head)!;
  };

  beforeAll(async () => {
    e2e = await startGitHubE2E(provider);
    const { github } = e2e;
    github.createRepository(DOCS_REPO, DOCS);
    github.createRepository(SOURCE_REPO, SOURCE);
    github.addInstallation(INSTALLATION, [DOCS_REPO, SOURCE_REPO]);
    const installed = examplePayload('installation', 'created');
    installed.installation.id = INSTALLATION;
    installed.repositories = [{ id: 1, node_id: 'R', name: 'docs', full_name: DOCS_REPO, private: true }];
    await e2e.send('installation', installed);
    projectId = (await e2e.database.db.project.findUniqueOrThrow({ where: { repository: DOCS_REPO } })).id;
    key = await e2e.keyFor(projectId);
    const loaded = await e2e.api(`/v1/automations/${projectId}`, { key });
    expect(loaded.body.automations.map((a: { id: string }) => a.id)).toEqual(['review-api']);
    github.setPermission(SOURCE_REPO, 'maintainer-mia', 'maintain');
    github.setPermission(SOURCE_REPO, 'dev-dana', 'write');
    github.setPermission(SOURCE_REPO, 'drive-by-dave', 'read');
    github.setPermission(DOCS_REPO, 'dev-dana', 'write');
    github.setPermission(DOCS_REPO, 'reviewer-rob', 'read');
    github.createBranch(SOURCE_REPO, 'rename-verbose', 'main');
    github.commitFiles(
      SOURCE_REPO,
      'rename-verbose',
      { 'src/cli.ts': "export const flags = ['--debug'];\n" },
      'Rename --verbose to --debug',
    );
    source = github.openPullRequest(SOURCE_REPO, {
      head: 'rename-verbose',
      title: 'CLI: rename --verbose to --debug',
      body: 'The flag says what it does now.',
      user: 'dev-dana',
    });
    // the review's check run on its head, with the draft button
    const reviewed = await e2e.send('pull_request', pullEvent(source, 'opened'));
    expect(reviewed.status).toBe('done');
    expect(checkRunOf(source)).toMatchObject({
      name: 'Scribe docs',
      output: { title: '1 docs page may need an update' },
      actions: [expect.objectContaining({ identifier: 'draft-docs' })],
    });
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('refuses someone without write access to the source repository, with a reply', async () => {
    const delivery = await e2e.send(
      'issue_comment',
      pullCommentPayload({
        repository: SOURCE_REPO,
        installationId: INSTALLATION,
        number: source.number,
        login: 'drive-by-dave',
        body: '@scribe-docs docs',
      }),
    );
    expect(delivery).toMatchObject({ status: 'done', outcome: 'refused: drive-by-dave has no write access' });
    expect(commentsOn(SOURCE_REPO, source.number)).toEqual([
      `@drive-by-dave Only people with write access to ${SOURCE_REPO} can ask Scribe for a docs draft.`,
    ]);
    const pressed = await e2e.send('check_run', pressDraft(source, 'drive-by-dave'));
    expect(pressed.outcome).toBe('refused: drive-by-dave has no write access');
    expect(await e2e.database.db.docsDraft.count()).toBe(0);
    expect(await e2e.database.db.agentJob.count()).toBe(0);
  });

  it('the check run action opens a draft docs pull request that links the source pull request and lists its pages', async () => {
    e2e.anthropic.script(
      [
        reply([
          edit({
            command: 'str_replace',
            path: 'cli.md',
            old_str: 'Pass `--verbose`',
            new_str: 'Pass `--debug`',
          }),
        ]),
        final('Rename --verbose to --debug in the CLI page', 'The CLI page names --debug.'),
      ],
      forTask('CLI: rename --verbose to --debug'),
    );
    const payload = pressDraft(source, 'maintainer-mia');
    const delivery = await e2e.send('check_run', payload);
    expect(delivery.outcome).toMatch(/^review-api: draft run arun_\w+ \(job job_\w+\)$/);
    expect(commentsOn(SOURCE_REPO, source.number).at(-1)).toMatch(
      /^@maintainer-mia Scribe is drafting the docs update on acme\/docs \(job `job_\w+`\)/,
    );

    const [run] = await settledRuns(1);
    expect(run).toMatchObject({
      status: 'pull_request_opened',
      trigger: { kind: 'pull_request', repository: SOURCE_REPO, number: source.number, headSha: expect.any(String) },
    });
    const head = e2e.github.log(SOURCE_REPO, 'rename-verbose')[0].sha;
    expect(run.trigger.headSha).toBe(head);
    const [docsPr] = docsPulls();
    expect(docsPulls()).toHaveLength(1);
    expect(docsPr).toMatchObject({ draft: true, state: 'open', html_url: run.prLink });
    expect(docsPr.body).toContain(
      `[${SOURCE_REPO}#${source.number}](${source.html_url}) CLI: rename --verbose to --debug`,
    );
    expect(docsPr.body).toContain('pages: `cli.md`');
    expect(e2e.github.readFile(DOCS_REPO, docsPr.head, 'cli.md')).toContain('--debug');
    // the check run's summary links the draft
    await waitFor(
      async () => checkRunOf(source).output.summary?.includes(`**Docs draft:** [${docsPr.html_url}]`) || undefined,
      'the check run to link the docs draft',
    );

    const requests = e2e.anthropic.requests.filter((r) => forTask('CLI: rename --verbose to --debug').match(r));
    const prompt = JSON.stringify(requests[0].body.messages[0].content);
    expect(prompt).toContain('Keep the CLI reference true to the code.');
    expect(prompt).toContain('The flag says what it does now.');
    expect(prompt).toContain(source.html_url);
    expect(prompt).toContain('cli.md:3: `--verbose`');
    expect(prompt).toContain("+export const flags = ['--debug'];");
    expect(JSON.stringify(requests[0].body.system)).toContain(
      `The source repository ${SOURCE_REPO} at ${head.slice(0, 7)} is read-only context`,
    );
  });

  it('asking again, or a redelivery, keeps one docs pull request', async () => {
    const comment = pullCommentPayload({
      repository: SOURCE_REPO,
      installationId: INSTALLATION,
      number: source.number,
      login: 'maintainer-mia',
      body: '@scribe-docs docs',
    });
    const first = await e2e.deliver('issue_comment', comment);
    await e2e.settled(first.id);
    const again = await e2e.deliver('issue_comment', comment, { id: first.id });
    expect(again.status).toBe(200);
    expect((await e2e.settled(first.id)).outcome).toMatch(/^review-api: draft exists \(job job_\w+\)$/);
    expect(commentsOn(SOURCE_REPO, source.number).at(-1)).toBe(
      `@maintainer-mia The docs draft for ${DOCS_REPO} is ${docsPulls()[0].html_url}; it follows this pull request.`,
    );
    expect((await e2e.send('check_run', pressDraft(source, 'maintainer-mia'))).outcome).toMatch(/draft exists/);
    expect(await e2e.database.db.docsDraft.count()).toBe(1);
    expect(await e2e.database.db.agentJob.count()).toBe(1);
    expect(docsPulls()).toHaveLength(1);
  });

  it('new commits on the source pull request become a follow-up on the same docs pull request', async () => {
    e2e.anthropic.script(
      [
        reply([
          edit({
            command: 'str_replace',
            path: 'cli.md',
            old_str: 'for more output.\n',
            new_str: 'for more output.\n\nPass `--trace` to log every request.\n',
          }),
        ]),
        final('Document --trace', 'Added --trace.'),
      ],
      forTask('got new commits'),
    );
    const { before } = e2e.github.pushToPullRequest(
      SOURCE_REPO,
      source.number,
      { 'src/cli.ts': "export const flags = ['--debug', '--trace'];\n" },
      'Add --trace',
    );
    const delivery = await e2e.send('pull_request', pullEvent(source, 'synchronize', before));
    expect(delivery.outcome).toMatch(/review-api: follow-up run arun_\w+ running \(job job_\w+\)/);
    const [latest, first] = await settledRuns(2);
    expect(latest).toMatchObject({ status: 'pull_request_updated', jobId: first.jobId, prLink: first.prLink });
    expect(docsPulls()).toHaveLength(1);
    expect(e2e.github.readFile(DOCS_REPO, docsPulls()[0].head, 'cli.md')).toContain('--trace');
    // the new head's check run links the same draft
    await waitFor(
      async () => checkRunOf(source).output.summary?.includes(`**Docs draft:** [${first.prLink}]`) || undefined,
      "the new head's check run to link the docs draft",
    );
    const prompt = JSON.stringify(
      e2e.anthropic.requests.filter((r) => forTask('got new commits').match(r))[0].body.messages,
    );
    expect(prompt).toContain("+export const flags = ['--debug', '--trace'];");
  });

  it('merging the source pull request marks the docs pull request ready and asks its people for a review', async () => {
    e2e.github.addReview(SOURCE_REPO, source.number, 'reviewer-rob');
    e2e.github.addReview(SOURCE_REPO, source.number, 'outsider-olga', 'COMMENTED');
    e2e.github.closePullRequest(SOURCE_REPO, source.number, true);
    const delivery = await e2e.send('pull_request', pullEvent(source, 'closed'));
    expect(delivery).toMatchObject({
      status: 'done',
      outcome:
        'review-api: docs pull request #1 ready for review; review asked of dev-dana, reviewer-rob; named outsider-olga',
    });
    const [docsPr] = docsPulls();
    expect(docsPr).toMatchObject({ state: 'open', draft: false, requestedReviewers: ['dev-dana', 'reviewer-rob'] });
    expect(e2e.github.calls.some((c) => c.path === '/graphql')).toBe(true);
    expect(commentsOn(DOCS_REPO, docsPr.number).at(-1)).toMatch(
      /merged\. @outsider-olga worked on it but cannot be asked for a review here \(no access to acme\/docs\)/,
    );
    // a second delivery of the merge (another id) repeats nothing
    const comments = e2e.github.comments.length;
    await e2e.send('pull_request', pullEvent(source, 'closed'));
    expect(e2e.github.comments.length).toBe(comments);
  });

  it('closing a source pull request without merging closes its draft with a reason; reopening reopens it', async () => {
    e2e.github.createBranch(SOURCE_REPO, 'drop-flag', 'main');
    e2e.github.commitFiles(SOURCE_REPO, 'drop-flag', { 'src/cli.ts': 'export const flags = [];\n' }, 'Drop flags');
    const second = e2e.github.openPullRequest(SOURCE_REPO, {
      head: 'drop-flag',
      title: 'CLI: drop every flag',
      user: 'dev-dana',
    });
    e2e.anthropic.script(
      [
        reply([
          edit({
            command: 'str_replace',
            path: 'index.mdx',
            old_str: '# Acme docs',
            new_str: '# Acme docs (no flags)',
          }),
        ]),
        final('No more flags', 'Removed the flags.'),
      ],
      forTask('CLI: drop every flag'),
    );
    const asked = await e2e.send(
      'issue_comment',
      pullCommentPayload({
        repository: SOURCE_REPO,
        installationId: INSTALLATION,
        number: second.number,
        login: 'dev-dana',
        body: '@Scribe-Docs docs',
      }),
    );
    expect(asked.outcome).toMatch(/review-api: draft run/);
    await settledRuns(3);
    const docsPr = docsPulls().find((p) => p.body.includes(`${SOURCE_REPO}#${second.number}`))!;
    expect(docsPr).toMatchObject({ draft: true, state: 'open' });

    e2e.github.closePullRequest(SOURCE_REPO, second.number, false);
    const closed = await e2e.send('pull_request', pullEvent(second, 'closed'));
    expect(closed.outcome).toBe(`review-api: docs pull request #${docsPr.number} closed`);
    expect(docsPr.state).toBe('closed');
    expect(commentsOn(DOCS_REPO, docsPr.number).at(-1)).toContain(
      `was closed without merging, so this docs draft is closed too`,
    );

    e2e.github.reopenPullRequest(SOURCE_REPO, second.number);
    const reopened = await e2e.send('pull_request', pullEvent(second, 'reopened'));
    expect(reopened.outcome).toContain(`docs pull request #${docsPr.number} reopened`);
    expect(docsPr.state).toBe('open');
  });

  it('two replicas asked at once (the button and a comment) start one draft, one job, one docs pull request', async () => {
    e2e.github.createBranch(SOURCE_REPO, 'add-config', 'main');
    e2e.github.commitFiles(SOURCE_REPO, 'add-config', { 'src/config.ts': 'export const config = {};\n' }, 'Config');
    const third = e2e.github.openPullRequest(SOURCE_REPO, {
      head: 'add-config',
      title: 'Config file',
      user: 'dev-dana',
    });
    await e2e.send('pull_request', pullEvent(third, 'opened'));
    e2e.anthropic.script([final('Nothing to change', 'The docs need nothing.')], forTask('Config file'));
    const replica = await startScribe({ ...e2e.config, port: 0 }, createLogger('silent'));
    try {
      const comment = pullCommentPayload({
        repository: SOURCE_REPO,
        installationId: INSTALLATION,
        number: third.number,
        login: 'maintainer-mia',
        body: '@scribe-docs docs',
      });
      const [a, b] = await Promise.all([
        deliverTo(e2e.scribe.url, 'check_run', pressDraft(third, 'dev-dana')),
        deliverTo(replica.url, 'issue_comment', comment),
      ]);
      const outcomes = [(await e2e.settled(a.id)).outcome, (await e2e.settled(b.id)).outcome];
      expect(outcomes.filter((o) => /draft run arun_/.test(o ?? ''))).toHaveLength(1);
      expect(outcomes.filter((o) => /draft exists/.test(o ?? ''))).toHaveLength(1);
      const drafts = await e2e.database.db.docsDraft.findMany({ where: { number: third.number } });
      expect(drafts).toHaveLength(1);
      await waitFor(
        async () =>
          (await runs()).runs.find((r: { trigger: { number: number } }) => r.trigger.number === third.number)
            ?.status === 'no_changes'
            ? true
            : undefined,
        'the third draft run to end',
        30_000,
        50,
      );
      expect(await e2e.database.db.agentJob.count({ where: { id: drafts[0].jobId! } })).toBe(1);
      expect(await e2e.database.db.automationRun.count({ where: { pullNumber: third.number } })).toBe(1);
    } finally {
      await replica.stop();
    }
  });

  it('a pull request from a fork gets a draft only when someone with write access to the source repository asks', async () => {
    e2e.github.createBranch(SOURCE_REPO, 'fork-flag', 'main');
    e2e.github.commitFiles(SOURCE_REPO, 'fork-flag', { 'src/cli.ts': "export const flags = ['--loud'];\n" }, 'Loud');
    const forked = e2e.github.openPullRequest(SOURCE_REPO, {
      head: 'fork-flag',
      title: 'CLI: --verbose is now --loud',
      user: 'fork-fred',
      fork: 'fork-fred/api',
    });
    expect(e2e.github.pullJson(SOURCE_REPO, forked.number).head.repo.full_name).toBe('fork-fred/api');
    await e2e.send('pull_request', pullEvent(forked, 'opened'));
    const refused = await e2e.send('check_run', pressDraft(forked, 'fork-fred'));
    expect(refused.outcome).toBe('refused: fork-fred has no write access');
    expect(await e2e.database.db.docsDraft.count({ where: { number: forked.number } })).toBe(0);

    e2e.anthropic.script(
      [
        reply([
          edit({ command: 'str_replace', path: 'cli.md', old_str: 'Pass `--verbose`', new_str: 'Pass `--loud`' }),
        ]),
        final('--loud', 'Renamed.'),
      ],
      forTask('CLI: --verbose is now --loud'),
    );
    // GitHub lists no pull request on a fork's check run: the open pull request with that head is found instead
    const asked = await e2e.send('check_run', pressDraft(forked, 'maintainer-mia'));
    expect(asked.outcome).toMatch(/^review-api: draft run arun_\w+ \(job job_\w+\)$/);
    const run = await waitFor(
      async () => {
        const found = (await runs()).runs.find(
          (r: { trigger: { number: number }; status: string }) => r.trigger.number === forked.number,
        );
        return found && found.status !== 'running' ? found : undefined;
      },
      'the fork draft run to end',
      30_000,
      50,
    );
    expect(run).toMatchObject({ status: 'pull_request_opened' });
    expect(docsPulls().find((p) => p.html_url === run.prLink)).toMatchObject({ draft: true, state: 'open' });
  });

  it('lists the draft runs in the API as OpenAPI documents them, in the CLI and in the dashboard', async () => {
    const conformance = openApiConformance(
      (await (await fetch(`${e2e.scribe.url}/openapi.json`)).json()) as Parameters<typeof openApiConformance>[0],
    );
    const response = await fetch(`${e2e.scribe.url}/v1/automations/${projectId}/runs`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const checked = await conformance.check({ method: 'GET', path: '/v1/automations/{projectId}/runs', response });
    expect(checked.status).toBe(200);
    const listed = (await runs()).runs as { trigger: { kind: string; number: number; headSha: string } }[];
    expect(listed.map((r) => [r.trigger.kind, r.trigger.number])).toEqual([
      ['pull_request', 4],
      ['pull_request', 3],
      ['pull_request', 2],
      ['pull_request', 1],
      ['pull_request', 1],
    ]);

    const out: string[] = [];
    const io: CliIo = { out: (l) => out.push(l), err: () => undefined, stdin: process.stdin, interactive: false };
    const code = await runCli(['automation', 'runs', '--project', projectId], io, {
      SCRIBE_URL: e2e.scribe.url,
      SCRIBE_API_KEY: key,
      DATABASE_URL: 'file:/nonexistent-dir-not-used/x.db',
    });
    expect(code).toBe(0);
    expect(out.join('\n')).toContain(`pull_request ${SOURCE_REPO}#1 ${listed[3].trigger.headSha.slice(0, 7)}`);

    if (dashboardBundleStale()) await buildDashboard();
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      await page.goto(`${e2e.scribe.url}/dashboard#automations`);
      await page.fill('#project', projectId);
      await page.fill('#key', key);
      await page.click('#connect button[type=submit]');
      await page.waitForSelector('#automation-runs');
      const triggers = await page.$$eval('#automation-runs tbody tr', (trs) =>
        trs.map((tr: any) => tr.querySelectorAll('td')[2].textContent),
      );
      expect(triggers[2]).toBe(`pull request ${SOURCE_REPO}#2 at ${listed[2].trigger.headSha.slice(0, 7)}`);
      expect(await page.evaluate(() => document.querySelectorAll('#automation-runs tbody tr').length)).toBe(5);
    } finally {
      await browser.close();
    }
  });

  it('a merge that arrives while the draft job is still running is applied when its docs pull request opens', async () => {
    e2e.github.createBranch(SOURCE_REPO, 'merge-early', 'main');
    e2e.github.commitFiles(SOURCE_REPO, 'merge-early', { 'src/cli.ts': 'export const flags = [];\n' }, 'No flags');
    const early = e2e.github.openPullRequest(SOURCE_REPO, {
      head: 'merge-early',
      title: 'CLI: merged early',
      user: 'dev-dana',
    });
    // the model's first turn takes a while, so the merge lands before the run opens its pull request
    e2e.anthropic.script(
      [
        reply(
          [edit({ command: 'str_replace', path: 'index.mdx', old_str: '# Acme docs', new_str: '# Acme docs (early)' })],
          { delayMs: 2_000 },
        ),
        final('Early', 'Updated.'),
      ],
      forTask('CLI: merged early'),
    );
    const asked = await e2e.send(
      'issue_comment',
      pullCommentPayload({
        repository: SOURCE_REPO,
        installationId: INSTALLATION,
        number: early.number,
        login: 'dev-dana',
        body: '@scribe-docs docs',
      }),
    );
    expect(asked.outcome).toMatch(/review-api: draft run/);
    e2e.github.closePullRequest(SOURCE_REPO, early.number, true);
    const merged = await e2e.send('pull_request', pullEvent(early, 'closed'));
    expect(merged.outcome).toBe('review-api: no docs pull request yet; its run brings it in line when it opens one');
    const docsPr = await waitFor(
      () =>
        docsPulls().find(
          (p) => p.body.includes(`${SOURCE_REPO}#${early.number}`) && !p.draft && !!p.requestedReviewers?.length,
        ),
      'the docs pull request opened and taken out of draft',
      30_000,
    );
    expect(docsPr).toMatchObject({ state: 'open', draft: false, requestedReviewers: ['dev-dana'] });
  });
});
