import { MAX_SUMMARY_CHARS, renderCheckOutput } from '../../../src/reviews/impact/check-output.js';
import type { Finding, Impact } from '../../../src/reviews/impact/find-impact.js';

const links = {
  docsRepoUrl: 'https://github.com/acme/docs',
  docsRef: 'main',
  sourceRepoUrl: 'https://github.com/acme/api',
  headSha: 'abc123',
};

function finding(overrides: Partial<Finding> = {}): Finding {
  return {
    page: 'cli/deploy.mdx',
    line: 7,
    lineText: '| `--force` | Skip the confirmation |',
    identifier: '--force',
    change: 'removed',
    kind: 'cli-flag',
    codeFile: 'src/commands/deploy.ts',
    codeLine: 11,
    codeSide: 'head',
    ...overrides,
  };
}

describe('renderCheckOutput', () => {
  it('says no impact was found when there is no finding', () => {
    const impact: Impact = { findings: [], reviewedFiles: 4, skippedFiles: [] };
    const output = renderCheckOutput({ impact, modelUsed: false, ...links });
    expect(output.title).toBe('No docs impact found');
    expect(output.pageCount).toBe(0);
    expect(output.summary).toContain('4 changed files looked at');
  });

  it('links each finding to its docs line and its code line, grouped by page, with the model’s reason', () => {
    const first = finding();
    const second = finding({
      page: 'reference/env.md',
      line: 3,
      identifier: 'ACME_TOKEN',
      kind: 'env-var',
      change: 'renamed',
      renamedTo: 'ACME_API_TOKEN',
    });
    const rejected = finding({ page: 'blog/2020.md', line: 1 });
    const output = renderCheckOutput({
      impact: { findings: [first, second], reviewedFiles: 2, skippedFiles: [] },
      reasons: new Map([[first, 'The page lists a flag the command no longer has.']]),
      rejected: [{ finding: rejected, reason: 'A changelog entry about the past.' }],
      modelUsed: true,
      docsPullRequestUrl: 'https://github.com/acme/docs/pull/9',
      ...links,
    });
    expect(output.title).toBe('2 docs pages may need an update');
    expect(output.pageCount).toBe(2);
    expect(output.summary).toContain('[line 7](https://github.com/acme/docs/blob/main/cli/deploy.mdx#L7)');
    expect(output.summary).toContain(
      '[src/commands/deploy.ts:11](https://github.com/acme/api/blob/abc123/src/commands/deploy.ts#L11)',
    );
    expect(output.summary).toContain('The page lists a flag the command no longer has.');
    expect(output.summary).toContain('`ACME_TOKEN` renamed to `ACME_API_TOKEN`');
    expect(output.summary).toMatch(
      /### Checked, probably fine\n[\s\S]*blog\/2020\.md#L1[\s\S]*A changelog entry about the past\./,
    );
    expect(output.summary).toContain('Docs draft: https://github.com/acme/docs/pull/9');
    expect(output.summary).not.toContain('unjudged');
  });

  it('says the list is unjudged without a model, and links a removed line to the base commit when it has one', () => {
    const impact: Impact = { findings: [finding({ codeSide: 'base' })], reviewedFiles: 1, skippedFiles: [] };
    const withoutBase = renderCheckOutput({ impact, modelUsed: false, ...links });
    expect(withoutBase.title).toBe('1 docs page may need an update');
    expect(withoutBase.summary).toContain('unjudged');
    expect(withoutBase.summary).toContain('`src/commands/deploy.ts:11` (removed line)');
    const withBase = renderCheckOutput({ impact, modelUsed: false, baseSha: 'def456', ...links });
    expect(withBase.summary).toContain(
      '(https://github.com/acme/api/blob/def456/src/commands/deploy.ts#L11) (removed line)',
    );
  });

  it('keeps 10,000 findings under the Checks API limit and says how many it left out', () => {
    const findings = Array.from({ length: 10_000 }, (_, i) => finding({ page: `pages/p${i % 700}.mdx`, line: i + 1 }));
    const skippedFiles = Array.from({ length: 3_000 }, (_, i) => `src/generated/file-${i}.ts`);
    const output = renderCheckOutput({
      impact: { findings, reviewedFiles: 5_000, skippedFiles },
      modelUsed: false,
      ...links,
    });
    expect(output.summary.length).toBeLessThan(MAX_SUMMARY_CHARS);
    const notShown = Number(/(\d+) more findings not shown/.exec(output.summary)?.[1]);
    const shown = (output.summary.match(/^- \[line /gm) ?? []).length;
    expect(shown).toBeGreaterThan(0);
    expect(shown + notShown).toBe(10_000);
    expect(output.summary).toContain('only the first 5000 files were looked at; the other 3000 files');
    expect(output.title).toBe('700 docs pages may need an update');
  });

  it('lists skipped files by name when there is room', () => {
    const impact: Impact = { findings: [], reviewedFiles: 2, skippedFiles: ['assets/huge.bin'] };
    const output = renderCheckOutput({ impact, modelUsed: false, ...links });
    expect(output.summary).toContain('### Files not looked at\n- `assets/huge.bin`');
  });
});
