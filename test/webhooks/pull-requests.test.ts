import { PROVIDERS } from '../support/databases.js';
import { pullRequestPayload, startGitHubE2E, type GitHubE2E } from '../support/github-harness.js';

const INSTALLATION = 6262;
const SOURCE = 'acme/api';

/** pull_request.closed on a source pull request: its merge is kept when a docs review of it is on record. */
describe.each(PROVIDERS)('source pull request merges on %s', (provider) => {
  let e2e: GitHubE2E;
  beforeAll(async () => {
    e2e = await startGitHubE2E(provider);
    e2e.github.createRepository(SOURCE, { 'src/cli.ts': 'export const a = 1;\n' });
    e2e.github.addInstallation(INSTALLATION, [SOURCE]);
  });
  afterAll(async () => {
    await e2e?.close();
  });

  /** a pull request on the source repository, closed (merged or not) and delivered */
  const close = async (branch: string, merge: boolean) => {
    e2e.github.createBranch(SOURCE, branch, 'main');
    e2e.github.commitFiles(
      SOURCE,
      branch,
      { 'src/cli.ts': `export const ${branch.replace(/-/g, '_')} = 2;\n` },
      branch,
    );
    const pr = e2e.github.openPullRequest(SOURCE, { head: branch, title: branch, user: 'dev-dana' });
    e2e.github.closePullRequest(SOURCE, pr.number, merge);
    const pull = e2e.github.pullJson(SOURCE, pr.number);
    const delivery = await e2e.send(
      'pull_request',
      pullRequestPayload({ action: 'closed', repository: SOURCE, installationId: INSTALLATION, pull }),
    );
    return { pr, pull, delivery };
  };
  const review = (number: number) =>
    e2e.database.db.docsReviewCheck.create({
      data: {
        id: `rev_${provider}_${number}`,
        projectId: 'prj_docs',
        automationId: 'review-api',
        repository: SOURCE,
        number,
        headSha: `${number}`.padStart(40, '0'),
        status: 'completed',
        pageCount: 1,
        findings: '{"findings":[]}',
        createdAt: new Date(),
        updatedAt: new Date(),
      },
    });
  const merges = () => e2e.database.db.sourcePullMerge.findMany({ orderBy: { number: 'asc' } });

  it('keeps the merge of a reviewed pull request once, and nothing for others', async () => {
    await review(1);
    await review(2);
    const merged = await close('reviewed-merged', true);
    expect(merged.pr.number).toBe(1);
    expect(merged.delivery.status).toBe('ignored'); // kept quietly: no docs draft follows it
    await close('reviewed-closed', false); // #2: closed without merging
    await close('never-reviewed', true); // #3: merged, never reviewed
    expect(await merges()).toEqual([{ repository: SOURCE, number: 1, mergedAt: new Date(merged.pull.merged_at) }]);
    // a redelivery keeps the first time
    await e2e.send(
      'pull_request',
      pullRequestPayload({
        action: 'closed',
        repository: SOURCE,
        installationId: INSTALLATION,
        pull: { ...merged.pull, merged_at: '2030-01-01T00:00:00Z' },
      }),
    );
    expect(await merges()).toHaveLength(1);
    expect((await merges())[0].mergedAt).toEqual(new Date(merged.pull.merged_at));
  });
});
