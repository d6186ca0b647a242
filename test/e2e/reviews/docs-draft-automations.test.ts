import { reply, text } from '../../support/anthropic-server.js';
import { PROVIDERS } from '../../support/databases.js';
import { listMessages } from '../../../src/jobs/job-store.js';
import {
  checkRunActionPayload,
  examplePayload,
  pullCommentPayload,
  pullRequestPayload,
  startGitHubE2E,
  type GitHubE2E,
} from '../../support/github-harness.js';

const INSTALLATION = 84;
const DOCS_REPO = 'acme/docs';
const SOURCE_REPO = 'acme/api';
const CONFIG = `automations:
  - id: cli-pages
    on:
      pull_request:
        repository: ${SOURCE_REPO}
    prompt: Keep the CLI pages true to the code.
  - id: api-pages
    on:
      pull_request:
        repository: ${SOURCE_REPO}
    prompt: Keep the API pages true to the code.
`;

describe.each(PROVIDERS)('docs drafts when several automations review one repository, on %s', (provider) => {
  let e2e: GitHubE2E;

  beforeAll(async () => {
    e2e = await startGitHubE2E(provider);
    const { github } = e2e;
    github.createRepository(DOCS_REPO, {
      '.scribe/automations.yml': CONFIG,
      'docs.json': `${JSON.stringify({ name: 'Acme', navigation: [{ group: 'Start', pages: ['cli'] }] })}\n`,
      'cli.md': '# CLI\n\nPass `--verbose` for more output.\n',
    });
    github.createRepository(SOURCE_REPO, { 'src/cli.ts': "export const flags = ['--verbose'];\n" });
    github.addInstallation(INSTALLATION, [DOCS_REPO, SOURCE_REPO]);
    const installed = examplePayload('installation', 'created');
    installed.installation.id = INSTALLATION;
    installed.repositories = [{ id: 1, node_id: 'R', name: 'docs', full_name: DOCS_REPO, private: true }];
    await e2e.send('installation', installed);
    const projectId = (await e2e.database.db.project.findUniqueOrThrow({ where: { repository: DOCS_REPO } })).id;
    await e2e.api(`/v1/automations/${projectId}`, { key: await e2e.keyFor(projectId) });
    github.setPermission(SOURCE_REPO, 'maintainer-mia', 'write');
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it("the button drafts for its check run's automation only; the comment drafts for every automation", async () => {
    const { github } = e2e;
    github.createBranch(SOURCE_REPO, 'quiet', 'main');
    github.commitFiles(SOURCE_REPO, 'quiet', { 'src/cli.ts': 'export const flags = [];\n' }, 'Drop --verbose');
    const pr = github.openPullRequest(SOURCE_REPO, { head: 'quiet', title: 'CLI: drop --verbose', user: 'dev-dana' });
    await e2e.send(
      'pull_request',
      pullRequestPayload({
        action: 'opened',
        repository: SOURCE_REPO,
        installationId: INSTALLATION,
        pull: github.pullJson(SOURCE_REPO, pr.number),
      }),
    );
    const runs = github.checkRuns.filter((r) => r.repository === SOURCE_REPO);
    expect(runs.map((r) => r.name).sort()).toEqual(['Scribe docs (api-pages)', 'Scribe docs (cli-pages)']);
    e2e.anthropic.fallback(() => reply([text('Title: Nothing\n\nNothing to change.')]));

    const pressed = await e2e.send(
      'check_run',
      checkRunActionPayload({
        github,
        pr,
        installationId: INSTALLATION,
        sender: 'maintainer-mia',
        checkRun: runs.find((r) => r.name === 'Scribe docs (api-pages)')!,
      }),
    );
    expect(pressed.outcome).toMatch(/^api-pages: draft run arun_\w+ \(job job_\w+\)$/);
    expect((await e2e.database.db.docsDraft.findMany()).map((d) => d.automationId)).toEqual(['api-pages']);
    const [job] = await e2e.database.db.agentJob.findMany();
    const [message] = await listMessages(e2e.database.db, job.id);
    expect(message.prompt.startsWith('Keep the API pages true to the code.')).toBe(true);

    const commented = await e2e.send(
      'issue_comment',
      pullCommentPayload({
        repository: SOURCE_REPO,
        installationId: INSTALLATION,
        number: pr.number,
        login: 'maintainer-mia',
        body: '@scribe-docs docs',
      }),
    );
    expect(commented.outcome).toMatch(/^cli-pages: draft run arun_\w+ \(job job_\w+\); api-pages: draft exists/);
    expect((await e2e.database.db.docsDraft.findMany()).map((d) => d.automationId).sort()).toEqual([
      'api-pages',
      'cli-pages',
    ]);
    expect(await e2e.database.db.agentJob.count()).toBe(2);
  });
});
