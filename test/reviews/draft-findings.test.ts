import { PROVIDERS, useTestDatabase } from '../support/databases.js';
import { fixedClock } from '../support/clock.js';
import { claimReview, finishReview } from '../../src/reviews/review-store.js';
import { findingsText, reviewFindings } from '../../src/reviews/draft-findings.js';
import type { Finding } from '../../src/reviews/impact/find-impact.js';

const finding = (over: Partial<Finding> = {}): Finding => ({
  page: 'cli.md',
  line: 3,
  lineText: 'Pass `--verbose` for more output.',
  identifier: '--verbose',
  change: 'removed',
  kind: 'cli-flag',
  codeFile: 'src/cli.ts',
  codeLine: 1,
  ...over,
});

describe('findingsText', () => {
  it('gives each finding its page line, identifier, change, code line, reason and the page text', () => {
    expect(
      findingsText([
        { ...finding({ change: 'renamed', renamedTo: '--debug' }), reason: 'the page documents the flag' },
        finding({ page: 'index.mdx', line: 9, identifier: 'ACME_TOKEN', kind: 'env-var' }),
      ]),
    ).toBe(
      [
        '- cli.md:3: `--verbose` (cli-flag) renamed to `--debug` at src/cli.ts:1 — the page documents the flag',
        '  > Pass `--verbose` for more output.',
        '- index.mdx:9: `ACME_TOKEN` (env-var) removed at src/cli.ts:1',
        '  > Pass `--verbose` for more output.',
      ].join('\n'),
    );
  });

  it('lists at most 60 findings and says how many more there are', () => {
    const text = findingsText(Array.from({ length: 65 }, (_, i) => finding({ line: i + 1 })));
    expect(text.split('\n').filter((l) => l.startsWith('- cli.md'))).toHaveLength(60);
    expect(text.endsWith('- … and 5 more findings')).toBe(true);
  });
});

describe.each(PROVIDERS)('reviewFindings on %s', (provider) => {
  const database = useTestDatabase(provider);
  const clock = fixedClock('2026-11-24T12:00:00.000Z');

  it("reads the automation's newest finished review of the pull request, its pages once each", async () => {
    const query = {
      db: database.db,
      projectId: 'prj_1',
      automationId: 'review-api',
      repository: 'acme/api',
      number: 7,
    };
    expect(await reviewFindings(query)).toBeNull();
    const claimed = await claimReview({
      db: database.db,
      clock,
      key: { projectId: 'prj_1', automationId: 'review-api', repository: 'acme/api', headSha: 'c'.repeat(40) },
      number: 7,
      owner: 'me',
      leaseMs: 30_000,
    });
    if (!('claimed' in claimed)) throw new Error('not claimed');
    await finishReview({
      db: database.db,
      clock,
      id: claimed.claimed.id,
      owner: 'me',
      status: 'completed',
      conclusion: 'neutral',
      title: '2 docs pages may need an update',
      pageCount: 2,
      findings: JSON.stringify({
        findings: [finding(), finding({ line: 8 }), finding({ page: 'index.mdx' })],
        rejected: [finding({ page: 'changelog.md' })],
      }),
    });
    const found = await reviewFindings(query);
    expect(found?.pages).toEqual(['cli.md', 'index.mdx']);
    expect(found?.text).toContain('- cli.md:8: `--verbose`');
    expect(found?.text).not.toContain('changelog.md');
    expect(await reviewFindings({ ...query, number: 8 })).toBeNull();
  });
});
