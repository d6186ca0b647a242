import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { evaluate, FIXTURES, loadCases, loadSite, scoreCase, summarize } from '../../scripts/eval-docs-review.js';

describe('the docs review evaluation', () => {
  it('holds at least 20 labelled cases, each naming a site that exists and pages that exist in it', () => {
    const cases = loadCases();
    expect(cases.length).toBeGreaterThanOrEqual(20);
    for (const c of cases) {
      const pages = new Set(loadSite(c.site).map((p) => p.path));
      expect(c.files.length).toBeGreaterThan(0);
      for (const page of c.expected)
        expect({ case: c.name, page, known: pages.has(page) }).toEqual({ case: c.name, page, known: true });
    }
    // Both kinds of case are there: pages that truly needed an update, and changes with no docs impact.
    expect(cases.some((c) => c.expected.length === 0)).toBe(true);
    expect(cases.some((c) => c.expected.length > 0)).toBe(true);
  });

  it('computes every case’s result and the micro-averaged precision and recall from them', () => {
    const { cases, precision, recall } = evaluate();
    expect(cases.map((c) => c.name)).toEqual(loadCases().map((c) => c.name));
    for (const c of cases) {
      expect(c.truePositives + c.falseNegatives).toBe(c.expected.length);
      expect(c.truePositives + c.falsePositives).toBe(c.predicted.length);
    }
    const tp = cases.reduce((n, c) => n + c.truePositives, 0);
    const fp = cases.reduce((n, c) => n + c.falsePositives, 0);
    const fn = cases.reduce((n, c) => n + c.falseNegatives, 0);
    expect(precision).toBeCloseTo(tp / (tp + fp));
    expect(recall).toBeCloseTo(tp / (tp + fn));
    // The review finds something: an evaluation of a finder that finds nothing would measure nothing.
    expect(tp).toBeGreaterThan(0);
  });

  it('scores pages as sets: a page flagged twice counts once, a refactor’s flagged page is a false positive', () => {
    expect(scoreCase('a', ['x.md', 'y.md'], ['x.md', 'x.md', 'z.md'])).toMatchObject({
      truePositives: 1,
      falsePositives: 1,
      falseNegatives: 1,
      predicted: ['x.md', 'z.md'],
    });
    const summary = summarize([scoreCase('a', ['x.md'], ['x.md']), scoreCase('refactor', [], ['y.md'])]);
    expect(summary.precision).toBeCloseTo(0.5);
    expect(summary.recall).toBe(1);
  });

  it('reads a case directory of its own, so the evaluation is not tied to one set', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-review-'));
    try {
      fs.cpSync(path.join(FIXTURES, 'sites', 'skyctl'), path.join(dir, 'sites', 'skyctl'), { recursive: true });
      fs.mkdirSync(path.join(dir, 'cases', 'one'), { recursive: true });
      fs.writeFileSync(
        path.join(dir, 'cases', 'one', 'case.yaml'),
        [
          'description: drop --detach',
          'repository: test',
          'site: skyctl',
          'expected: [cli/deploy.mdx]',
          'files:',
          '  - filename: cmd/deploy.ts',
          '    status: modified',
          '    patch: |',
          '      @@ -1,1 +1,0 @@',
          "      -  .option('--detach', 'Return early')",
        ].join('\n'),
      );
      const { cases, precision, recall } = evaluate(dir);
      expect(cases).toEqual([expect.objectContaining({ name: 'one', predicted: ['cli/deploy.mdx', 'guides/ci.mdx'] })]);
      expect(precision).toBeCloseTo(0.5);
      expect(recall).toBe(1);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
