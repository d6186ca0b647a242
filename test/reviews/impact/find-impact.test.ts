import { findDocsImpact, type ChangedFile, type DocsPage } from '../../../src/reviews/impact/find-impact.js';

const pages: DocsPage[] = [
  {
    path: 'cli/deploy.mdx',
    text: [
      '# Deploy',
      '',
      'Run `acme deploy --region eu-west-1` to deploy.',
      '',
      '| Flag | Meaning |',
      '| `--region` | Where to deploy |',
      '| `--force` | Skip the confirmation |',
      '',
      'Set `ACME_TOKEN` first.',
    ].join('\n'),
  },
  { path: 'guides/connect.md', text: 'You connect to the server with the client.\n\n```js\nclient.connect()\n```\n' },
  { path: 'index.mdx', text: 'Welcome. Nothing here names a flag.' },
];

const patch = (lines: string[]) => `@@ -10,${lines.length} +10,${lines.length} @@\n${lines.join('\n')}`;

describe('findDocsImpact', () => {
  it('finds a removed flag still documented, with the docs line and the code line that removed it', () => {
    const files: ChangedFile[] = [
      {
        filename: 'src/commands/deploy.ts',
        status: 'modified',
        patch: patch([
          "   .option('--region <region>', 'Where to deploy')",
          "-  .option('--force', 'Skip the confirmation')",
          '   .action(deploy);',
        ]),
      },
    ];
    const impact = findDocsImpact({ files, pages });
    expect(impact.findings).toEqual([
      expect.objectContaining({
        page: 'cli/deploy.mdx',
        line: 7,
        lineText: '| `--force` | Skip the confirmation |',
        identifier: '--force',
        change: 'removed',
        kind: 'cli-flag',
        codeFile: 'src/commands/deploy.ts',
        codeLine: 11,
      }),
    ]);
    expect(impact.reviewedFiles).toBe(1);
    expect(impact.skippedFiles).toEqual([]);
  });

  it('reads a renamed environment variable as a rename, and ranks it before an added flag', () => {
    const files: ChangedFile[] = [
      {
        filename: 'src/auth.ts',
        status: 'modified',
        patch: patch(['-const token = process.env.ACME_TOKEN;', '+const token = process.env.ACME_API_TOKEN;']),
      },
      {
        filename: 'src/commands/deploy.ts',
        status: 'modified',
        patch: patch([
          "   .option('--region <region>', 'Where to deploy')",
          "+  .option('--dry-run', 'Print the plan only')",
          "   .option('--force', 'Skip the confirmation')",
        ]),
      },
    ];
    const { findings } = findDocsImpact({ files, pages });
    expect(findings.map((f) => [f.identifier, f.change, f.renamedTo, f.page, f.line])).toEqual([
      ['ACME_TOKEN', 'renamed', 'ACME_API_TOKEN', 'cli/deploy.mdx', 9],
      ['--dry-run', 'added', undefined, 'cli/deploy.mdx', 3],
    ]);
  });

  it('matches a plain word only in code, and ignores names that are only added and documented nowhere', () => {
    const files: ChangedFile[] = [
      {
        filename: 'src/client.ts',
        status: 'modified',
        patch: patch([
          '-export function connect(url: string) {',
          '+export function open(url: string) {',
          '+export function brandNew() {}',
        ]),
      },
    ];
    const { findings } = findDocsImpact({ files, pages });
    expect(findings.map((f) => [f.identifier, f.change, f.page, f.line])).toEqual([
      ['connect', 'renamed', 'guides/connect.md', 4],
    ]);
  });

  it('counts a deleted file’s exported names as removed, from its old text when the patch is missing', () => {
    const files: ChangedFile[] = [
      {
        filename: 'src/client.ts',
        status: 'removed',
        removedText: 'export class Client {}\nexport function connect() {}\n',
      },
    ];
    const { findings } = findDocsImpact({ files, pages });
    expect(findings.map((f) => [f.identifier, f.change, f.codeLine, f.codeSide])).toEqual([
      ['connect', 'removed', 2, 'base'],
    ]);
  });

  it('looks at the first files within the limits and lists the rest by name', () => {
    const files: ChangedFile[] = Array.from({ length: 5 }, (_, i) => ({
      filename: `src/f${i}.ts`,
      status: 'modified' as const,
      patch: patch(["-  .option('--force')"]),
    }));
    const byCount = findDocsImpact({ files, pages, maxFiles: 2 });
    expect(byCount.reviewedFiles).toBe(2);
    expect(byCount.skippedFiles).toEqual(['src/f2.ts', 'src/f3.ts', 'src/f4.ts']);
    const bySize = findDocsImpact({ files, pages, maxPatchBytes: files[0].patch!.length * 3 + 1 });
    expect(bySize.reviewedFiles).toBe(3);
    expect(bySize.skippedFiles).toEqual(['src/f3.ts', 'src/f4.ts']);
  });
});
