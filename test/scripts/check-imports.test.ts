import path from 'node:path';
import { importProblems, nodeOf, readImports } from '../../scripts/check-imports.js';

const graph = (edges: Record<string, string[]>) => new Map(Object.entries(edges).map(([from, to]) => [from, new Set(to)]));

describe('the import check', () => {
  it('names folders by their first segment, github/webhooks apart from github/, root files by name', () => {
    expect(nodeOf('jobs/worker.ts')).toBe('jobs');
    expect(nodeOf('github/webhooks/comments.ts')).toBe('github/webhooks');
    expect(nodeOf('github/github-app.ts')).toBe('github');
    expect(nodeOf('main.ts')).toBe('main.ts');
  });

  it('refuses an import from a lower layer into a higher one', () => {
    expect(importProblems(graph({ 'git/workspace.ts': ['github/github-app.ts'], 'github/github-app.ts': [] }))).toEqual([
      'git/workspace.ts imports github/github-app.ts: git may not import github, a layer above it',
    ]);
  });

  it('refuses folders of one layer that import each other, and files that do', () => {
    const problems = importProblems(graph({ 'agent/a.ts': ['analytics/b.ts'], 'analytics/b.ts': ['agent/c.ts'], 'agent/c.ts': [] }));
    expect(problems).toEqual(['folders import each other: agent ↔ analytics']);
    expect(importProblems(graph({ 'http/app.ts': ['http/routes/metrics.ts'], 'http/routes/metrics.ts': ['http/app.ts'] }))).toEqual([
      'files import each other: http/app.ts ↔ http/routes/metrics.ts',
    ]);
  });

  it('refuses a folder it has no layer for', () => {
    expect(importProblems(graph({ 'widgets/run.ts': ['jobs/job-store.ts'] }))).toEqual(['widgets/run.ts: widgets has no layer in scripts/check-imports.ts']);
  });

  it("finds nothing to refuse in Scribe's own src/", () => {
    const src = path.resolve(import.meta.dirname, '../../src');
    const files = readImports(src);
    expect(files.get('main.ts')).toContain('jobs/worker.ts');
    expect(importProblems(files)).toEqual([]);
  });
});
