import {
  JUDGMENT_SYSTEM,
  buildJudgmentPrompt,
  estimateTokens,
  parseJudgment,
} from '../../src/reviews/judgment-prompt.js';
import type { ChangedFile, Finding } from '../../src/reviews/impact/find-impact.js';

const finding = (page: string, identifier: string): Finding => ({
  page,
  line: 3,
  lineText: `Pass \`${identifier}\` for more output.`,
  identifier,
  change: 'removed',
  kind: 'cli-flag',
  codeFile: 'src/cli.ts',
  codeLine: 1,
});

describe('buildJudgmentPrompt', () => {
  const files: ChangedFile[] = [
    { filename: 'src/other.ts', status: 'modified', patch: `@@ -1 +1 @@\n-${'x'.repeat(3000)}\n+y` },
    { filename: 'src/cli.ts', status: 'modified', patch: "@@ -1 +1 @@\n-['--verbose']\n+[]" },
  ];

  it('numbers every finding and puts the diff of the files they come from first', () => {
    const { text, judged, diffCut } = buildJudgmentPrompt({
      findings: [finding('cli.md', '--verbose'), finding('index.md', '--verbose')],
      files,
      maxInputTokens: 20_000,
    });
    expect(judged).toHaveLength(2);
    expect(diffCut).toBe(false);
    expect(text).toMatch(/^Findings:\n1\. cli\.md:3 mentions `--verbose`/);
    expect(text.indexOf('src/cli.ts (modified)')).toBeLessThan(text.indexOf('src/other.ts (modified)'));
  });

  it('stays within the token cap: the diff is cut, then findings beyond the cap are left unjudged', () => {
    const cut = buildJudgmentPrompt({ findings: [finding('cli.md', '--verbose')], files, maxInputTokens: 700 });
    expect(cut.diffCut).toBe(true);
    expect(estimateTokens(cut.text) + estimateTokens(JUDGMENT_SYSTEM)).toBeLessThanOrEqual(700);
    expect(cut.text).toContain('[diff cut to fit the token cap]');
    const many = Array.from({ length: 200 }, (_, i) => finding(`page-${i}.md`, `--flag-${i}`));
    const some = buildJudgmentPrompt({ findings: many, files, maxInputTokens: 1_500 });
    expect(some.judged.length).toBeGreaterThan(0);
    expect(some.judged.length).toBeLessThan(200);
    expect(estimateTokens(some.text) + estimateTokens(JUDGMENT_SYSTEM)).toBeLessThanOrEqual(1_500);
  });
});

describe('parseJudgment', () => {
  it('reads the verdicts from the JSON the model answers, prose around it allowed', () => {
    const verdicts = parseJudgment(
      'Here:\n{"verdicts":[{"id":1,"stale":true,"reason":"documents  the\\nflag"},{"id":2,"stale":false}]}',
    );
    expect([...verdicts]).toEqual([
      [1, { stale: true, reason: 'documents the flag' }],
      [2, { stale: false, reason: '' }],
    ]);
  });

  it('gives no verdict for an answer that is not the asked JSON, or an entry without a boolean', () => {
    expect(parseJudgment('I think both pages are fine.').size).toBe(0);
    expect(parseJudgment('{"verdicts": "none"}').size).toBe(0);
    expect(parseJudgment('{"verdicts":[{"id":"1","stale":true},{"id":2,"stale":"no"}]}').size).toBe(0);
  });
});
