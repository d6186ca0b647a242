import { classifyChanges, type ChangedFileInput } from '../../../src/reviews/impact/classify-changes.js';

const modified = (filename: string, lines: string[]): ChangedFileInput => ({
  filename,
  status: 'modified',
  patch: `@@ -20,${lines.length} +20,${lines.length} @@\n${lines.join('\n')}`,
});
const summary = (files: ChangedFileInput[]) =>
  classifyChanges(files).map((c) => `${c.change} ${c.kind} ${c.identifier}${c.renamedTo ? ` -> ${c.renamedTo}` : ''}`);

describe('classifyChanges', () => {
  it('tells a rename by the line that reads the same with the new name', () => {
    expect(
      summary([
        modified('src/errors.ts', [
          '-export function isRetryable(e: unknown) {',
          '+export function isTransientError(e: unknown) {',
        ]),
      ]),
    ).toEqual(['renamed symbol isRetryable -> isTransientError']);
  });

  it('pairs one name out and one name in of the same kind in a hunk even when the line changed more', () => {
    expect(
      summary([
        modified('src/routes.ts', [
          "-refunds.post('/v1/charges/:chargeId/refund', handler);",
          "+refunds.post('/v1/refunds', validate(schema), handler);",
        ]),
      ]),
    ).toEqual(['renamed http-route /v1/charges/:chargeId/refund -> /v1/refunds']);
  });

  it('calls a name removed when nothing replaces it, and a moved or reformatted line no change', () => {
    expect(summary([modified('src/cli.ts', ["-  .option('--force', 'Skip the prompt')"])])).toEqual([
      'removed cli-flag --force',
    ]);
    expect(
      summary([
        modified('src/a.ts', ["-  .option('--force', 'Skip the prompt')"]),
        modified('src/b.ts', ["+    .option('--force',   'Skip the prompt')"]),
      ]),
    ).toEqual([]);
  });

  it('calls a name changed when its signature or the values on its line change, not its type hints', () => {
    expect(
      summary([
        modified('cmd/deploy.go', [
          '-\tf.StringVar(&r, "--region", "us-east-1", "")',
          '+\tf.StringVar(&r, "--region", "eu-central-1", "")',
        ]),
      ]),
    ).toEqual(['changed cli-flag --region']);
    expect(
      summary([modified('src/x.ts', ['-export function send(to) {', '+export function send(to, retries = 3) {'])]),
    ).toEqual(['changed symbol send']);
    expect(
      summary([
        modified('ledger/accounts.py', [
          '-    def retrieve(self, account_id):',
          '+    def retrieve(self, account_id: str) -> Account:',
        ]),
      ]),
    ).toEqual([]);
  });

  it('gives an added name the siblings of its hunk, and nothing for kinds that are not listed in pages', () => {
    const [added] = classifyChanges([
      modified('src/cli.ts', ["   .option('--region <r>')", "+  .option('--dry-run')", "   .option('--force')"]),
    ]);
    expect(added).toMatchObject({ change: 'added', identifier: '--dry-run', siblings: ['--region', '--force'] });
    expect(summary([modified('src/x.ts', ['+export function brandNew() {}'])])).toEqual([]);
  });

  it('counts a deleted file’s exported names as removed, and its path and Python module too', () => {
    expect(
      summary([
        { filename: 'src/ledger/legacy.py', status: 'removed', removedText: 'class LegacyClient(Client):\n    pass\n' },
      ]),
    ).toEqual([
      'removed file-path src/ledger/legacy.py',
      'removed symbol ledger.legacy',
      'removed symbol LegacyClient',
    ]);
  });

  it('reads a renamed file as a renamed path (and module), reading its removed lines under the old name', () => {
    const changes = classifyChanges([
      {
        filename: 'src/acme/net/http.py',
        previousFilename: 'src/acme/utils/http.py',
        status: 'renamed',
        patch: '@@ -1,1 +1,0 @@\n-def fetch_json(url):',
      },
    ]);
    expect(changes.map((c) => `${c.change} ${c.identifier} ${c.renamedTo ?? ''} ${c.codeFile}`.trim())).toEqual([
      'renamed src/acme/utils/http.py src/acme/net/http.py src/acme/net/http.py',
      'renamed acme.utils.http acme.net.http src/acme/net/http.py',
      'removed fetch_json  src/acme/utils/http.py',
    ]);
  });
});
