import { PROVIDERS } from '../../support/databases.js';
import {
  examplePayload,
  pullRequestPayload,
  pushPayload,
  startGitHubE2E,
  type GitHubE2E,
} from '../../support/github-harness.js';
import { openApiConformance } from '../../support/openapi-conformance.js';
import { runCli } from '../../../src/cli/run-cli.js';
import type { CliIo } from '../../../src/cli/command.js';

const INSTALLATION = 91;
const DOCS_REPO = 'acme/docs';
const SOURCE_REPO = 'acme/api';
const BLOCKING_REPO = 'acme/cli';
const DOCS = {
  'docs.json': `${JSON.stringify({ name: 'Acme', navigation: [{ group: 'Start', pages: ['index', 'cli'] }] })}\n`,
  'index.mdx': '# Acme docs\n\nSet `ACME_TOKEN` before you start.\n',
  'cli.md': '# CLI\n\nRun `acme sync`.\n\nPass `--verbose` for more output.\n',
  '.scribe/automations.yml': `automations:
  - id: review-api
    on:
      pull_request:
        repository: ${SOURCE_REPO}
        paths: ["src/**"]
    prompt: Keep the CLI page true to the code.
    review: { comment: true }
  - id: review-cli
    on:
      pull_request:
        repository: ${BLOCKING_REPO}
    prompt: Keep the CLI page true.
    review: { block: true }
`,
};
const SOURCE = {
  'src/cli.ts': "export const flags = ['--verbose', '--quiet'];\n",
  'src/env.ts': 'export const token = process.env.ACME_TOKEN;\n',
  'README.md': '# api\n',
  'logo.png': '\u0000PNG binary',
};

describe.each(PROVIDERS)('the Scribe docs check on source pull requests (no model) on %s', (provider) => {
  let e2e: GitHubE2E;
  const checks = (repository = SOURCE_REPO) => e2e.github.checkRuns.filter((r) => r.repository === repository);
  const open = (repository: string, branch: string, files: Record<string, string | null>, user = 'dev-dana') => {
    e2e.github.createBranch(repository, branch, 'main');
    e2e.github.commitFiles(repository, branch, files, `Change on ${branch}`);
    return e2e.github.openPullRequest(repository, { head: branch, user });
  };
  const deliver = (action: Parameters<typeof pullRequestPayload>[0]['action'], repository: string, number: number) =>
    e2e.send(
      'pull_request',
      pullRequestPayload({
        action,
        repository,
        installationId: INSTALLATION,
        pull: e2e.github.pullJson(repository, number),
      }),
    );

  beforeAll(async () => {
    e2e = await startGitHubE2E(provider, { ANTHROPIC_API_KEY: '' });
    const { github } = e2e;
    github.createRepository(DOCS_REPO, DOCS);
    github.createRepository(SOURCE_REPO, SOURCE);
    github.createRepository(BLOCKING_REPO, SOURCE);
    github.addInstallation(INSTALLATION, [DOCS_REPO, SOURCE_REPO, BLOCKING_REPO]);
    const installed = examplePayload('installation', 'created');
    installed.installation.id = INSTALLATION;
    installed.repositories = [{ id: 1, node_id: 'R', name: 'docs', full_name: DOCS_REPO, private: true }];
    await e2e.send('installation', installed);
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('reports the pages a pull request makes stale on one check run, offers the draft, and comments once', async () => {
    const pr = open(SOURCE_REPO, 'drop-verbose', { 'src/cli.ts': "export const flags = ['--quiet'];\n" });
    const delivery = await deliver('opened', SOURCE_REPO, pr.number);
    expect(delivery.status).toBe('done');
    const head = e2e.github.pullJson(SOURCE_REPO, pr.number).head.sha;
    const [run] = checks().filter((r) => r.head_sha === head);
    expect(run).toMatchObject({
      name: 'Scribe docs',
      status: 'completed',
      conclusion: 'neutral',
      output: { title: '1 docs page may need an update' },
      actions: [{ identifier: 'draft-docs', label: 'Draft docs update' }],
    });
    expect(run.output.summary).toContain('No model is configured');
    const docsHead = e2e.github.log(DOCS_REPO, 'main')[0].sha;
    expect(run.output.summary).toContain(`${e2e.github.url}/${DOCS_REPO}/blob/${docsHead}/cli.md#L5`);
    expect(run.output.summary).toContain('`--verbose`');
    // created in progress first, then completed
    expect(run.writes.map((w: any) => w.status)).toEqual(['in_progress', 'completed']);
    const comments = e2e.github.comments.filter((c) => c.repository === SOURCE_REPO && c.number === pr.number);
    expect(comments).toHaveLength(1);
    expect(comments[0].body).toContain('Scribe docs: 1 docs page may need an update');

    // a redelivery (a new delivery id) and ready_for_review of the same head commit: still one check run, one comment
    expect((await deliver('opened', SOURCE_REPO, pr.number)).outcome).toMatch(/already reviewed \(neutral\)/);
    expect((await deliver('ready_for_review', SOURCE_REPO, pr.number)).status).toBe('done');
    expect(checks().filter((r) => r.head_sha === head)).toHaveLength(1);
    expect(e2e.github.comments.filter((c) => c.repository === SOURCE_REPO && c.number === pr.number)).toHaveLength(1);

    // a push that puts the flag back: a new check on the new head, success, and the comment edited to resolved
    e2e.github.commitFiles(SOURCE_REPO, 'drop-verbose', { 'src/cli.ts': SOURCE['src/cli.ts'] }, 'Keep --verbose');
    e2e.github.commitFiles(SOURCE_REPO, 'drop-verbose', { 'src/other.ts': 'export const x = 1;\n' }, 'Other');
    const synced = await deliver('synchronize', SOURCE_REPO, pr.number);
    expect(synced.status).toBe('done');
    const newHead = e2e.github.pullJson(SOURCE_REPO, pr.number).head.sha;
    expect(checks().find((r) => r.head_sha === newHead)).toMatchObject({
      conclusion: 'success',
      output: { title: 'No docs impact found' },
      actions: [],
    });
    const after = e2e.github.comments.filter((c) => c.repository === SOURCE_REPO && c.number === pr.number);
    expect(after).toHaveLength(1);
    expect(after[0].edits).toBe(1);
    expect(after[0].deleted).toBeUndefined();
    expect(after[0].body).toContain('Scribe docs: resolved');
  });

  it('a newer push supersedes a review still running: its check concludes skipped and the comment is left alone', async () => {
    const pr = open(SOURCE_REPO, 'superseded', { 'src/cli.ts': "export const flags = ['--quiet'];\n" });
    const first = e2e.github.pullJson(SOURCE_REPO, pr.number).head.sha;
    const docs = e2e.github.holdNext('GET', /^\/repos\/acme\/docs\/branches\//);
    const { id } = await e2e.deliver(
      'pull_request',
      pullRequestPayload({
        action: 'opened',
        repository: SOURCE_REPO,
        installationId: INSTALLATION,
        pull: e2e.github.pullJson(SOURCE_REPO, pr.number),
      }),
    );
    await docs.reached;
    e2e.github.commitFiles(SOURCE_REPO, 'superseded', { 'src/more.ts': 'export {};\n' }, 'A newer push');
    docs.release();
    expect((await e2e.settled(id)).outcome).toMatch(/skipped: Superseded by a newer push/);
    expect(checks().filter((r) => r.head_sha === first)).toMatchObject([
      { status: 'completed', conclusion: 'skipped', output: { title: 'Superseded by a newer push' }, actions: [] },
    ]);
    expect(e2e.github.comments.filter((c) => c.repository === SOURCE_REPO && c.number === pr.number)).toEqual([]);
    // the newer push's own delivery reviews the new head
    expect((await deliver('synchronize', SOURCE_REPO, pr.number)).outcome).toMatch(/neutral: 1 docs page/);
  });

  it('completes the check saying why when GitHub refuses its result, and still reviews when the comment fails', async () => {
    const refused = open(SOURCE_REPO, 'refused-output', { 'src/cli.ts': "export const flags = ['--quiet'];\n" });
    e2e.github.failNext('PATCH', /^\/repos\/acme\/api\/check-runs\/\d+$/, 422, 'Invalid request. summary');
    const delivery = await deliver('opened', SOURCE_REPO, refused.number);
    expect(delivery).toMatchObject({
      status: 'done',
      outcome: expect.stringMatching(/neutral: Docs review could not run$/),
    });
    const head = e2e.github.pullJson(SOURCE_REPO, refused.number).head.sha;
    const [run] = checks().filter((r) => r.head_sha === head);
    expect(run).toMatchObject({
      status: 'completed',
      conclusion: 'neutral',
      output: { title: 'Docs review could not run' },
    });
    expect(run.output.summary).toContain('GitHub refused the review');
    // a review that could not run is said on the check only
    expect(e2e.github.comments.filter((c) => c.repository === SOURCE_REPO && c.number === refused.number)).toEqual([]);

    const uncommented = open(SOURCE_REPO, 'comment-refused', { 'src/cli.ts': "export const flags = ['--quiet'];\n" });
    e2e.github.failNext('POST', /^\/repos\/acme\/api\/issues\/\d+\/comments$/, 403, 'Resource not accessible');
    const second = await deliver('opened', SOURCE_REPO, uncommented.number);
    expect(second.outcome).toMatch(
      /neutral: 1 docs page may need an update; comment not written \(Resource not accessible/,
    );
  });

  it('lets an older head commit go: a delivery for a commit the pull request moved past creates no check', async () => {
    const pr = open(SOURCE_REPO, 'two-pushes', { 'src/cli.ts': "export const flags = ['--quiet'];\n" });
    const stale = pullRequestPayload({
      action: 'opened',
      repository: SOURCE_REPO,
      installationId: INSTALLATION,
      pull: e2e.github.pullJson(SOURCE_REPO, pr.number),
    });
    e2e.github.commitFiles(SOURCE_REPO, 'two-pushes', { 'src/more.ts': 'export {};\n' }, 'More');
    const delivery = await e2e.send('pull_request', stale);
    expect(delivery.outcome).toMatch(/^not reviewed: superseded by a newer push \(\w{7}\)$/);
    expect(checks().filter((r) => r.head_sha === stale.pull_request.head.sha)).toEqual([]);

    // closed before its delivery was processed: nothing to review either
    const late = pullRequestPayload({
      action: 'opened',
      repository: SOURCE_REPO,
      installationId: INSTALLATION,
      pull: e2e.github.pullJson(SOURCE_REPO, pr.number),
    });
    e2e.github.pulls.find((p) => p.repository === SOURCE_REPO && p.number === pr.number)!.state = 'closed';
    expect((await e2e.send('pull_request', late)).outcome).toBe('not reviewed: the pull request was closed');
    expect(checks().filter((r) => r.head_sha === late.pull_request.head.sha)).toEqual([]);
  });

  it('reviews a pull request from a fork, renames and deletions and binary files included', async () => {
    const pr = e2e.github.openPullRequest(SOURCE_REPO, { head: 'fork-change', user: 'outside-olga', fork: 'olga/api' });
    e2e.github.createBranch(SOURCE_REPO, 'fork-change', 'main');
    e2e.github.commitFiles(
      SOURCE_REPO,
      'fork-change',
      { 'src/env.ts': null, 'src/cli-flags.ts': SOURCE['src/cli.ts'], 'src/cli.ts': null, 'logo.png': '\u0000PNG2' },
      'Move and delete',
    );
    expect((await deliver('opened', SOURCE_REPO, pr.number)).status).toBe('done');
    const head = e2e.github.pullJson(SOURCE_REPO, pr.number).head.sha;
    const run = checks().find((r) => r.head_sha === head)!;
    // the deleted file's ACME_TOKEN counts as removed: the home page mentions it
    expect(run.conclusion).toBe('neutral');
    expect(run.output.summary).toContain('ACME_TOKEN');
    const files = e2e.github.calls.filter((c) => c.path === `/repos/${SOURCE_REPO}/pulls/${pr.number}/files`);
    expect(files.length).toBeGreaterThan(0);
  });

  it('reads every page of a long file list and honours paths: a pull request outside them gets no check', async () => {
    const many = Object.fromEntries(
      Array.from({ length: 230 }, (_, i) => [
        `src/gen/file-${String(i).padStart(3, '0')}.ts`,
        `export const v${i} = ${i};\n`,
      ]),
    );
    const pr = open(SOURCE_REPO, 'many-files', many);
    expect((await deliver('opened', SOURCE_REPO, pr.number)).status).toBe('done');
    const pages = e2e.github.calls
      .filter((c) => c.path === `/repos/${SOURCE_REPO}/pulls/${pr.number}/files`)
      .map((c) => c.query.page);
    expect(pages).toEqual(['1', '2', '3']);
    expect(checks().find((r) => r.head_sha === e2e.github.pullJson(SOURCE_REPO, pr.number).head.sha)).toMatchObject({
      conclusion: 'success',
    });

    const readme = open(SOURCE_REPO, 'readme-only', { 'README.md': '# api --verbose\n' });
    const outside = await deliver('opened', SOURCE_REPO, readme.number);
    expect(outside.outcome).toMatch(/no changed file matches the paths/);
    expect(checks().filter((r) => r.head_sha === e2e.github.pullJson(SOURCE_REPO, readme.number).head.sha)).toEqual([]);
  });

  it('never reviews a pull request Scribe opened, and concludes failure with block: true', async () => {
    const own = e2e.github.openPullRequest(BLOCKING_REPO, { head: 'main', user: `${e2e.github.app.slug}[bot]` });
    expect((await deliver('opened', BLOCKING_REPO, own.number)).outcome).toBe('opened by Scribe itself: not reviewed');

    const pr = open(BLOCKING_REPO, 'drop-verbose', { 'src/cli.ts': "export const flags = ['--quiet'];\n" });
    expect((await deliver('opened', BLOCKING_REPO, pr.number)).status).toBe('done');
    expect(checks(BLOCKING_REPO)).toHaveLength(1);
    expect(checks(BLOCKING_REPO)[0]).toMatchObject({ name: 'Scribe docs', conclusion: 'failure' });
    // no comment without review.comment
    expect(e2e.github.comments.filter((c) => c.repository === BLOCKING_REPO)).toEqual([]);
  });

  it('concludes neutral with the reason when the docs repository cannot be read, never silence', async () => {
    const pr = open(BLOCKING_REPO, 'unreachable-docs', { 'src/cli.ts': 'export const flags = [];\n' });
    e2e.github.revokeAccess(DOCS_REPO);
    try {
      expect((await deliver('opened', BLOCKING_REPO, pr.number)).status).toBe('done');
    } finally {
      e2e.github.addInstallation(INSTALLATION, [DOCS_REPO, SOURCE_REPO, BLOCKING_REPO]);
    }
    const run = checks(BLOCKING_REPO).find(
      (r) => r.head_sha === e2e.github.pullJson(BLOCKING_REPO, pr.number).head.sha,
    )!;
    expect(run).toMatchObject({
      status: 'completed',
      conclusion: 'neutral',
      output: { title: 'Docs review could not run' },
    });
    expect(run.output.summary).toContain(
      `The docs repository ${DOCS_REPO} was not found on GitHub (is the GitHub App installed on it?)`,
    );
  });

  it('concludes neutral with the reason when the docs config is broken', async () => {
    const { before } = e2e.github.commitFiles(DOCS_REPO, 'main', { 'docs.json': '{ "name": ' }, 'Break the config');
    const pr = open(BLOCKING_REPO, 'broken-docs-config', { 'src/cli.ts': 'export const flags = [];\n' });
    try {
      expect((await deliver('opened', BLOCKING_REPO, pr.number)).status).toBe('done');
    } finally {
      e2e.github.commitFiles(DOCS_REPO, 'main', { 'docs.json': DOCS['docs.json'] }, `Restore the config of ${before}`);
    }
    const head = e2e.github.pullJson(BLOCKING_REPO, pr.number).head.sha;
    const run = checks(BLOCKING_REPO).find((r) => r.head_sha === head)!;
    expect(run).toMatchObject({ conclusion: 'neutral', output: { title: 'Docs review could not run' } });
    expect(run.output.summary).toContain('the docs config docs.json is not valid JSON');
  });

  it('without a model, a docs push still reloads the config, and the API and CLI list the pull_request automations', async () => {
    const changed = DOCS['.scribe/automations.yml'].replace(
      `repository: ${BLOCKING_REPO}\n`,
      `repository: ${BLOCKING_REPO}\n        branches: [main, release]\n`,
    );
    const { before, after } = e2e.github.commitFiles(DOCS_REPO, 'main', { '.scribe/automations.yml': changed }, 'Cfg');
    const pushed = await e2e.send(
      'push',
      pushPayload({ repository: DOCS_REPO, installationId: INSTALLATION, before, after }),
    );
    expect(pushed).toMatchObject({
      status: 'done',
      outcome: expect.stringMatching(/reloaded \(2 loaded, 0 problems\)/),
    });

    const projectId = (await e2e.database.db.project.findUniqueOrThrow({ where: { repository: DOCS_REPO } })).id;
    const key = await e2e.keyFor(projectId);
    const response = await fetch(`${e2e.scribe.url}/v1/automations/${projectId}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const conformance = openApiConformance(
      (await (await fetch(`${e2e.scribe.url}/openapi.json`)).json()) as Parameters<typeof openApiConformance>[0],
    );
    const checked = await conformance.check({ method: 'GET', path: '/v1/automations/{projectId}', response });
    expect(checked.status).toBe(200);
    const body = checked.body as { configSha: string; automations: unknown[] };
    expect(body.configSha).toBe(after);
    expect(body.automations[1]).toEqual({
      id: 'review-cli',
      on: { kind: 'pull_request', repository: BLOCKING_REPO, branches: ['main', 'release'], paths: null },
      prompt: 'Keep the CLI page true.',
      draft: false,
      review: { comment: false, block: true },
    });

    const out: string[] = [];
    const io: CliIo = { out: (l) => out.push(l), err: () => undefined, stdin: process.stdin, interactive: false };
    const code = await runCli(['automation', 'list', '--project', projectId], io, {
      SCRIBE_URL: e2e.scribe.url,
      SCRIBE_API_KEY: key,
      DATABASE_URL: 'file:/nonexistent-dir-not-used/x.db',
    });
    expect(code).toBe(0);
    expect(out).toContain(`review-api\tpull requests to ${SOURCE_REPO} paths src/** (review: comment)`);
    expect(out).toContain(`review-cli\tpull requests to ${BLOCKING_REPO} (main,release) (review: block)`);
  });

  it('says on the pull request when the review automation that names its repository did not load', async () => {
    const broken = DOCS['.scribe/automations.yml'].replace('review: { block: true }', 'review: { block: maybe }');
    const { before, after } = e2e.github.commitFiles(DOCS_REPO, 'main', { '.scribe/automations.yml': broken }, 'Oops');
    const pushed = await e2e.send(
      'push',
      pushPayload({ repository: DOCS_REPO, installationId: INSTALLATION, before, after }),
    );
    expect(pushed.outcome).toMatch(/reloaded \(1 loaded, 1 problems\)/);

    const pr = open(BLOCKING_REPO, 'config-broken', { 'src/cli.ts': 'export const flags = [];\n' });
    const delivery = await deliver('opened', BLOCKING_REPO, pr.number);
    expect(delivery.outcome).toMatch(/^review-cli: check \d+ neutral: the automation did not load$/);
    const head = e2e.github.pullJson(BLOCKING_REPO, pr.number).head.sha;
    const runs = checks(BLOCKING_REPO).filter((r) => r.head_sha === head);
    expect(runs).toMatchObject([
      { name: 'Scribe docs', conclusion: 'neutral', output: { title: 'Docs review could not run' } },
    ]);
    expect(runs[0].output.summary).toContain('- review.block must be true or false');
    expect((await deliver('opened', BLOCKING_REPO, pr.number)).outcome).toMatch(/already said/);
    expect(checks(BLOCKING_REPO).filter((r) => r.head_sha === head)).toHaveLength(1);
  });
});
