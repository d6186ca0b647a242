import path from 'node:path';
import {
  codeMapProblems,
  codeMapSection,
  layoutProblems,
  missingPaths,
  testedModule,
  testLayoutProblems,
} from '../../scripts/check-layout.js';

const modules = new Set([
  'src/jobs/worker.ts',
  'src/analytics/store/day-sets.ts',
  'scripts/check-imports.ts',
  'test/support/anthropic-server.ts',
]);

describe('the test layout check', () => {
  it('maps a test to the module whose path it mirrors, alone or in a folder named after the module', () => {
    expect(testedModule('test/jobs/worker.test.ts', modules)).toBe('src/jobs/worker.ts');
    expect(testedModule('test/jobs/worker/recovery.test.ts', modules)).toBe('src/jobs/worker.ts');
    expect(testedModule('test/analytics/store/day-sets.test.ts', modules)).toBe('src/analytics/store/day-sets.ts');
    expect(testedModule('test/support/anthropic-server.test.ts', modules)).toBe('test/support/anthropic-server.ts');
    expect(testedModule('test/jobs/queue.test.ts', modules)).toBeNull();
    // a test outside test/support/ never mirrors a harness
    expect(testedModule('test/anthropic-server.test.ts', modules)).toBeNull();
  });

  it('refuses tests that mirror nothing and harnesses outside test/support/; end-to-end tests and fixtures pass', () => {
    expect(
      testLayoutProblems(
        [
          'test/jobs/worker.test.ts',
          'test/jobs/queue.test.ts',
          'test/jobs/harness.ts',
          'test/e2e/agent-jobs.test.ts',
          'test/e2e/whole-service.test.ts',
          'test/fixtures/site/index.md',
          'test/support/databases.ts',
          'test/scripts/check-imports.test.ts',
          'test/scripts/check-nothing.test.ts',
        ],
        modules,
      ),
    ).toEqual([
      'test/jobs/harness.ts: a harness or helper belongs in test/support/',
      'test/jobs/queue.test.ts: mirrors no module (expected src/<path>.ts for test/<path>.test.ts or test/<path>/*.test.ts)',
      'test/scripts/check-nothing.test.ts: tests nothing in scripts/ by that name',
    ]);
  });

  it('reads the code map and refuses a folder it leaves out and one it invents', () => {
    const readme = [
      '# Scribe',
      '## Code map',
      '**`jobs/`** owns job states. May import: `agent/`, `db/`.',
      '**`ghost/`** is gone.',
      '## Operations',
      '**`http/`** is described outside the code map and does not count.',
    ].join('\n');
    const codeMap = codeMapSection(readme);
    expect(codeMap).toContain('jobs/');
    expect(codeMap).not.toContain('Operations');
    expect(codeMapProblems({ codeMap, srcFolders: ['http', 'jobs'] })).toEqual([
      'the code map does not describe src/http/',
      'the code map describes src/ghost/, which does not exist',
    ]);
    expect(codeMapProblems({ codeMap: codeMapSection('# no map'), srcFolders: [] })).toEqual([
      'docs/architecture.md has no "## Code map" section',
    ]);
  });

  it('refuses a path the README names that is gone, folders and globs included', () => {
    const paths = ['src/jobs/worker.ts', 'src/http/routes/analytics-ai.ts', 'test/e2e/durability.test.ts'];
    const readme = [
      '1. `src/jobs/worker.ts` claims the job, `src/jobs/` holds it, `test/e2e/durability.test.ts` proves it',
      '2. routes in `src/http/routes/analytics*.ts`; `src/jobs/missing.ts` never existed',
      '3. `src/jobs/<module>.ts` is a placeholder, `src/<folder>/gone/<x>.ts` one that matches nothing',
      '4. `src/analytics/feedback/` moved, `src/http/routes/agent-jobs*.ts` too, `src/jobs/missing.ts` is named twice',
    ].join('\n');
    expect(missingPaths(readme, paths)).toEqual([
      'README.md names src/jobs/missing.ts, which does not exist',
      'README.md names src/<folder>/gone/<x>.ts, which does not exist',
      'README.md names src/analytics/feedback/, which does not exist',
      'README.md names src/http/routes/agent-jobs*.ts, which does not exist',
    ]);
  });

  it('names the page that names a missing path', () => {
    expect(missingPaths('see `src/jobs/gone.ts`', ['src/jobs/worker.ts'], 'docs/agent-jobs.md')).toEqual([
      'docs/agent-jobs.md names src/jobs/gone.ts, which does not exist',
    ]);
  });

  it("finds nothing to refuse in Scribe's own tree", () => {
    expect(layoutProblems(path.resolve(import.meta.dirname, '../..'))).toEqual([]);
  });
});
