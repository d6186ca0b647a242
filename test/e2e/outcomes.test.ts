import { edit, reply, text } from '../support/anthropic-server.js';
import { PROVIDERS } from '../support/databases.js';
import { waitFor } from '../support/wait-for.js';
import { forTask } from '../support/e2e-harness.js';
import { examplePayload, pullRequestPayload, startGitHubE2E, type GitHubE2E } from '../support/github-harness.js';

const INSTALLATION = 92;
const DOCS_REPO = 'acme/handbook';
const DOCS = {
  'docs.json': `${JSON.stringify({ name: 'Acme', navigation: [{ group: 'Start', pages: ['index', 'guides/setup'] }] }, null, 2)}\n`,
  'index.mdx': '---\ntitle: Home\n---\n\n# Acme handbook\n',
  'guides/setup.mdx': '---\ntitle: Setup\n---\n\nInstall the CLI.\n',
};

describe.each(PROVIDERS)('a merged Scribe docs pull request gets an outcome, on %s', (provider) => {
  let e2e: GitHubE2E;
  let projectId: string;
  let key: string;

  beforeAll(async () => {
    e2e = await startGitHubE2E(provider);
    e2e.github.createRepository(DOCS_REPO, DOCS);
    e2e.github.addInstallation(INSTALLATION, [DOCS_REPO]);
    const installed = examplePayload('installation', 'created');
    installed.installation.id = INSTALLATION;
    installed.repositories = [{ id: 1, node_id: 'R', name: 'handbook', full_name: DOCS_REPO, private: true }];
    await e2e.send('installation', installed);
    projectId = (await e2e.database.db.project.findUniqueOrThrow({ where: { repository: DOCS_REPO } })).id;
    key = await e2e.keyFor(projectId);
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('job → pull request → merged: the job and the outcomes list show the pages it changed, measured', async () => {
    e2e.anthropic.script(
      [
        reply([
          edit({
            command: 'str_replace',
            path: 'guides/setup.mdx',
            old_str: 'Install the CLI.',
            new_str: 'Install the CLI with npm.',
          }),
          edit({
            command: 'create',
            path: 'guides/upgrade.mdx',
            file_text: '---\ntitle: Upgrade\n---\n\nUpgrade the CLI.\n',
          }),
        ]),
        reply([text('Title: Setup and upgrade\n\nExplained installing and upgrading.')]),
      ],
      forTask('upgrade guide'),
    );
    const created = await e2e.api(`/v2/agent/${projectId}/job`, { key, body: { prompt: 'Write an upgrade guide' } });
    expect(created.status).toBe(201);
    const job = await waitFor(
      async () => {
        const { body } = await e2e.api(`/v2/agent/${projectId}/job/${created.body.id}`, { key });
        return body.status !== 'active' ? body : undefined;
      },
      'the job to finish',
      30_000,
      50,
    );
    expect(job).toMatchObject({ status: 'completed', outcome: null });
    const pr = e2e.github.pulls.find((p) => p.repository === DOCS_REPO && p.html_url === job.prLink)!;

    e2e.github.closePullRequest(DOCS_REPO, pr.number, true);
    const pull = e2e.github.pullJson(DOCS_REPO, pr.number);
    const delivery = await e2e.send(
      'pull_request',
      pullRequestPayload({ action: 'closed', repository: DOCS_REPO, installationId: INSTALLATION, pull }),
    );
    expect(delivery.status).toBe('done');

    const { body } = await e2e.api(`/v2/agent/${projectId}/job/${job.id}`, { key });
    const mergedAt = Date.parse(pull.merged_at);
    expect(body.outcome).toMatchObject({
      mergedAt: new Date(mergedAt).toISOString(),
      liveAt: new Date(mergedAt + 10 * 60_000).toISOString(),
    });
    expect(body.outcome.windows.map((w: { days: number }) => w.days)).toEqual([7, 14, 28]);
    // no reader came: a window that is complete cannot tell, one that is not has no verdict yet
    for (const w of body.outcome.windows)
      expect(w.total.verdict).toBe(w.status === 'complete' ? 'too little traffic to tell' : 'pending');
    expect(body.outcome.windows[0].pages.map((p: { path: string; change: string }) => [p.path, p.change])).toEqual([
      ['/guides/setup', 'edited'],
      ['/guides/upgrade', 'added'],
    ]);

    const listed = await e2e.api(`/v1/analytics/${projectId}/outcomes?dateFrom=2026-01-01`, { key });
    expect(listed.status).toBe(200);
    expect(listed.body.outcomes).toHaveLength(1);
    expect(listed.body.outcomes[0]).toMatchObject({
      jobId: job.id,
      repository: DOCS_REPO,
      number: pr.number,
      pages: [
        { path: '/guides/setup', change: 'edited' },
        { path: '/guides/upgrade', change: 'added' },
      ],
      outcome: { verdict: body.outcome.verdict },
    });
    expect(listed.body.summary).toEqual({ helped: 0, noEffect: 0, regressed: 0 });
  });
});
