import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { importProblems, nodeOf, readImports } from '../../scripts/check-imports.js';

const graph = (edges: Record<string, string[]>) =>
  new Map(Object.entries(edges).map(([from, to]) => [from, new Set(to)]));

describe('the import check', () => {
  it('names folders by their first segment, root files by name', () => {
    expect(nodeOf('jobs/worker.ts')).toBe('jobs');
    expect(nodeOf('webhooks/comments.ts')).toBe('webhooks');
    expect(nodeOf('analytics/store/sqlite/page-views.ts')).toBe('analytics');
    expect(nodeOf('github/github-app.ts')).toBe('github');
    expect(nodeOf('main.ts')).toBe('main.ts');
  });

  it('refuses an import from a lower layer into a higher one', () => {
    expect(importProblems(graph({ 'git/workspace.ts': ['github/github-app.ts'], 'github/github-app.ts': [] }))).toEqual(
      ['git/workspace.ts imports github/github-app.ts: git may not import github, a layer above it'],
    );
  });

  it('refuses folders of one layer that import each other, and files that do', () => {
    const problems = importProblems(
      graph({ 'agent/a.ts': ['analytics/b.ts'], 'analytics/b.ts': ['agent/c.ts'], 'agent/c.ts': [] }),
    );
    expect(problems).toEqual(['folders import each other: agent ↔ analytics']);
    expect(
      importProblems(graph({ 'http/app.ts': ['http/routes/metrics.ts'], 'http/routes/metrics.ts': ['http/app.ts'] })),
    ).toEqual(['files import each other: http/app.ts ↔ http/routes/metrics.ts']);
  });

  it('refuses folders of two layers that import each other, besides the upward import', () => {
    const problems = importProblems(
      graph({ 'jobs/run-job.ts': ['github/pull-request.ts'], 'github/pull-request.ts': ['jobs/job-store.ts'] }),
    );
    expect(problems).toEqual([
      'github/pull-request.ts imports jobs/job-store.ts: github may not import jobs, a layer above it',
      'folders import each other: github ↔ jobs',
    ]);
  });

  it('takes no edge from an import that leaves src/, such as a generated client beside it', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'check-imports-'));
    try {
      const write = (file: string, text: string) => {
        fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
        fs.writeFileSync(path.join(root, file), text);
      };
      write('src/db/client.ts', "import { PrismaClient } from '../../prisma/generated/sqlite/client.js';\n");
      // the generated files import each other, which would be a cycle if they were nodes
      write('prisma/generated/sqlite/client.ts', "export * from './models.js';\n");
      write('prisma/generated/sqlite/models.ts', "export * from './client.js';\n");
      const files = readImports(path.join(root, 'src'));
      expect([...files.keys()]).toEqual(['db/client.ts']);
      expect([...files.get('db/client.ts')!]).toEqual([]);
      expect(importProblems(files)).toEqual([]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('refuses a folder it has no layer for', () => {
    expect(importProblems(graph({ 'widgets/run.ts': ['jobs/job-store.ts'] }))).toEqual([
      'widgets/run.ts: widgets has no layer in scripts/check-imports.ts',
    ]);
  });

  it("finds nothing to refuse in Scribe's own src/", () => {
    const src = path.resolve(import.meta.dirname, '../../src');
    const files = readImports(src);
    expect(files.get('main.ts')).toContain('jobs/worker.ts');
    expect(importProblems(files)).toEqual([]);
  });
});
