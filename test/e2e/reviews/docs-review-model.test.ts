import { reply, text } from '../../support/anthropic-server.js';
import { PROVIDERS } from '../../support/databases.js';
import { examplePayload, pullRequestPayload, startGitHubE2E, type GitHubE2E } from '../../support/github-harness.js';

const INSTALLATION = 92;
const DOCS_REPO = 'acme/docs';
const SOURCE_REPO = 'acme/api';
const DOCS = {
  'index.md': '# Acme docs\n\nThe `--verbose` flag was renamed long ago; see the CLI page.\n',
  'cli.md': '# CLI\n\nPass `--verbose` for more output.\n',
  '.scribe/automations.yml': `automations:
  - id: review-api
    on: { pull_request: { repository: ${SOURCE_REPO} } }
    prompt: Keep the CLI page true to the code.
`,
};
const judged = (r: { body: any }) => String(r.body.system ?? '').startsWith('You review whether documentation pages');

describe.each(PROVIDERS)('the Scribe docs check with a model on %s', (provider) => {
  let e2e: GitHubE2E;
  const open = (branch: string) => {
    e2e.github.createBranch(SOURCE_REPO, branch, 'main');
    e2e.github.commitFiles(SOURCE_REPO, branch, { 'src/cli.ts': "export const flags = ['--quiet'];\n" }, branch);
    const pr = e2e.github.openPullRequest(SOURCE_REPO, { head: branch });
    const payload = pullRequestPayload({
      action: 'opened',
      repository: SOURCE_REPO,
      installationId: INSTALLATION,
      pull: e2e.github.pullJson(SOURCE_REPO, pr.number),
    });
    return { pr, payload, head: payload.pull_request.head.sha as string };
  };

  beforeAll(async () => {
    e2e = await startGitHubE2E(provider, { SCRIBE_REVIEW_MAX_INPUT_TOKENS: '3000' });
    e2e.github.createRepository(DOCS_REPO, DOCS);
    e2e.github.createRepository(SOURCE_REPO, { 'src/cli.ts': "export const flags = ['--verbose', '--quiet'];\n" });
    e2e.github.addInstallation(INSTALLATION, [DOCS_REPO, SOURCE_REPO]);
    const installed = examplePayload('installation', 'created');
    installed.installation.id = INSTALLATION;
    installed.repositories = [{ id: 1, node_id: 'R', name: 'docs', full_name: DOCS_REPO, private: true }];
    await e2e.send('installation', installed);
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('asks the model once, keeps the pages it judges stale and lists the ones it rejects apart', async () => {
    const { payload, head } = open('drop-verbose');
    e2e.anthropic.script(
      [
        reply([
          text(
            JSON.stringify({
              verdicts: [
                { id: 1, stale: true, reason: 'The CLI page documents the removed flag.' },
                { id: 2, stale: false, reason: 'Only a historical note.' },
              ],
            }),
          ),
        ]),
      ],
      { match: judged },
    );
    expect((await e2e.send('pull_request', payload)).status).toBe('done');
    const calls = e2e.anthropic.requests.filter(judged);
    expect(calls).toHaveLength(1);
    const prompt = calls[0].body.messages[0].content as string;
    expect(prompt).toContain('`--verbose`');
    expect(prompt).toContain('src/cli.ts');
    // within the configured cap (3,000 tokens at three characters a token, system prompt included)
    expect(prompt.length + calls[0].body.system.length).toBeLessThanOrEqual(9_000);
    const run = e2e.github.checkRuns.find((r) => r.head_sha === head)!;
    expect(run.conclusion).toBe('neutral');
    expect(run.output.title).toBe('1 docs page may need an update');
    const summary = run.output.summary!;
    expect(summary).toContain('Checked, probably fine');
    expect(summary).not.toContain('No model is configured');
    const pageOf = (n: number) =>
      prompt
        .split('\n')
        .find((l) => l.startsWith(`${n}. `))!
        .slice(3)
        .split(':')[0];
    expect([pageOf(1), pageOf(2)].sort()).toEqual(['cli.md', 'index.md']);
    const [kept, rejected] = summary.split('Checked, probably fine');
    expect(kept).toContain(`${pageOf(1)}#L`);
    expect(kept).not.toContain(`${pageOf(2)}#L`);
    expect(rejected).toContain(pageOf(2));
    expect(kept).toContain('The CLI page documents the removed flag.');
  });

  it('falls back to the deterministic list, saying why, when the model cannot be asked', async () => {
    const { payload, head } = open('drop-verbose-again');
    e2e.anthropic.script([{ error: { status: 400, message: 'prompt is too long' } }], { match: judged });
    expect((await e2e.send('pull_request', payload)).status).toBe('done');
    const run = e2e.github.checkRuns.find((r) => r.head_sha === head)!;
    expect(run.output.title).toBe('2 docs pages may need an update');
    expect(run.output.summary).toContain('The model could not be asked');
    expect(run.output.summary).toContain('prompt is too long');
    expect(run.output.summary).not.toContain('No model is configured');
  });
});
