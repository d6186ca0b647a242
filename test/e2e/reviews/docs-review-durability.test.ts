import { PROVIDERS } from '../../support/databases.js';
import { waitFor } from '../../support/wait-for.js';
import { INSTALLATION_ID, startE2E, type E2E } from '../../support/e2e-harness.js';
import { deliverTo, pullRequestPayload } from '../../support/github-harness.js';

const DOCS_REPO = 'acme/docs';
const SOURCE_REPO = 'acme/api';
const CONFIG = `automations:
  - id: review-api
    on: { pull_request: { repository: ${SOURCE_REPO} } }
    prompt: Keep the CLI page true.
`;

describe.each(PROVIDERS)('docs reviews across crashes and replicas on %s', (provider) => {
  let e2e: E2E;
  const processed = (id: string) =>
    waitFor(
      async () => {
        const row = await e2e.database.db.webhookDelivery.findUnique({ where: { id } });
        return row && row.status !== 'received' ? row : undefined;
      },
      `delivery ${id} to be processed`,
      45_000,
      50,
    );
  const openPull = (branch: string) => {
    e2e.github.createBranch(SOURCE_REPO, branch, 'main');
    e2e.github.commitFiles(SOURCE_REPO, branch, { 'src/cli.ts': "export const flags = ['--quiet'];\n" }, branch);
    const pr = e2e.github.openPullRequest(SOURCE_REPO, { head: branch });
    const pull = e2e.github.pullJson(SOURCE_REPO, pr.number);
    return {
      head: pull.head.sha as string,
      payload: pullRequestPayload({ action: 'opened', repository: SOURCE_REPO, installationId: INSTALLATION_ID, pull }),
    };
  };
  const runsOn = (sha: string) => e2e.github.checkRuns.filter((r) => r.head_sha === sha);

  beforeAll(async () => {
    // A short lease: a killed process's delivery and review are taken over two seconds after it died.
    e2e = await startE2E(provider, { SCRIBE_JOB_LEASE_SECONDS: '2', ANTHROPIC_API_KEY: '' });
    e2e.github.createRepository(SOURCE_REPO, { 'src/cli.ts': "export const flags = ['--verbose', '--quiet'];\n" });
    e2e.github.addInstallation(INSTALLATION_ID, [DOCS_REPO, SOURCE_REPO]);
    e2e.github.commitFiles(
      DOCS_REPO,
      'main',
      { '.scribe/automations.yml': CONFIG, 'cli.md': '# CLI\n\nPass `--verbose` for more output.\n' },
      'Review the API',
    );
    // the config is read once up front, so the reads held below are the reviews' own
    expect((await e2e.request(`/v1/automations/${e2e.projectId}`)).body.automations).toHaveLength(1);
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('a review killed after its check run was created: after a restart the same check run completes, no second one', async () => {
    const { head, payload } = openPull('killed');
    // the docs are read after the check run is created: the process dies while that request is on its way
    const docs = e2e.github.holdNext('GET', /^\/repos\/acme\/docs\/branches\//);
    const { status, id } = await deliverTo(e2e.scribe.url, 'pull_request', payload);
    expect(status).toBe(200);
    await docs.reached;
    expect(runsOn(head)).toMatchObject([{ status: 'in_progress' }]);
    await e2e.scribe.kill();
    docs.release();

    e2e.scribe = await e2e.start();
    expect(await processed(id)).toMatchObject({ status: 'done', attempts: 2 });
    const runs = runsOn(head);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ status: 'completed', conclusion: 'neutral', name: 'Scribe docs' });
    expect(await e2e.database.db.docsReviewCheck.count({ where: { headSha: head } })).toBe(1);
  });

  it('the same event reaching two replicas, twice each: one check run', async () => {
    const { head, payload } = openPull('replicas');
    const other = await e2e.start();
    try {
      const sent = await Promise.all(
        [e2e.scribe, other, e2e.scribe, other].map((scribe) => deliverTo(scribe.url, 'pull_request', payload)),
      );
      expect(sent.map((s) => s.status)).toEqual([200, 200, 200, 200]);
      const rows = await Promise.all(sent.map((s) => processed(s.id)));
      expect(rows.map((r) => r.status)).toEqual(['done', 'done', 'done', 'done']);
      expect(runsOn(head)).toHaveLength(1);
      expect(runsOn(head)[0]).toMatchObject({ status: 'completed', conclusion: 'neutral' });
      expect(rows.map((r) => r.outcome).sort()).toEqual([
        ...Array(3).fill(expect.stringMatching(/^review-api: \w{7} already reviewed \(neutral\)$/)),
        expect.stringMatching(/^review-api: check \d+ neutral: 1 docs page may need an update$/),
      ]);
    } finally {
      await other.stop();
    }
  });
});
