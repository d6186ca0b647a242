import { useAutomations } from '../support/automations.js';
import { readPullRequestFiles } from '../../src/reviews/read-pull-request-files.js';

const BIG = `export function legacyThing(): void {}\n${Array.from({ length: 4_000 }, (_, i) => `export const value${i} = ${i}; // padding line ${i}`).join('\n')}\n`;

describe('readPullRequestFiles on the local GitHub host', () => {
  // nothing here is stored: one database is enough for the bench's App
  const bench = useAutomations('sqlite');

  it('reads every page of the listing, keeps renames, and reads a deleted file GitHub sends no patch for', async () => {
    const project = await bench.project({ also: ['acme/files-api'] });
    const { host } = bench;
    host.createRepository('acme/files-api', {
      'src/big.ts': BIG,
      'src/a.ts': 'export const a = 1;\n',
      'logo.bin': '\u0000\u0001binary',
    });
    host.createBranch('acme/files-api', 'change', 'main');
    const added = Object.fromEntries(
      Array.from({ length: 230 }, (_, i) => [`src/gen/f${i}.ts`, `export const f${i} = ${i};\n`]),
    );
    host.commitFiles(
      'acme/files-api',
      'change',
      { ...added, 'src/big.ts': null, 'logo.bin': null, 'src/a.ts': null, 'src/b.ts': 'export const a = 1;\n' },
      'Change',
    );
    const pr = host.openPullRequest('acme/files-api', { head: 'change' });
    const pull = host.pullJson('acme/files-api', pr.number);
    const octokit = await bench.deps.github.octokit(project.installationId!);
    const read = (changedFiles: number, maxFiles = 5_000) =>
      readPullRequestFiles({
        octokit,
        repository: 'acme/files-api',
        number: pr.number,
        baseSha: pull.base.sha,
        changedFiles,
        maxFiles,
        maxBytes: 20 * 1024 * 1024,
      });
    const { files, unlisted } = await read(pull.changed_files);
    expect(files).toHaveLength(233);
    expect(unlisted).toBe(0);
    const byName = new Map(files.map((f) => [f.filename, f]));
    expect(byName.get('src/b.ts')).toMatchObject({ status: 'renamed', previousFilename: 'src/a.ts' });
    const big = byName.get('src/big.ts')!;
    expect(big.status).toBe('removed');
    expect(big.patch).toBeUndefined();
    expect(big.removedText).toContain('export function legacyThing()');
    expect(byName.get('logo.bin')).toMatchObject({ status: 'removed' });
    expect(byName.get('logo.bin')!.removedText).toBeUndefined();
    const pages = host.calls.filter((c) => c.path.endsWith(`/pulls/${pr.number}/files`)).map((c) => c.query.page);
    expect(pages).toEqual(['1', '2', '3']);

    // past the file limit no deleted file is read at the base; GitHub's count beyond its listing is said
    const limited = await read(3_100, 1);
    expect(limited.files.find((f) => f.filename === 'src/big.ts')!.removedText).toBeUndefined();
    expect(limited.unlisted).toBe(3_100 - 233);
  });
});
