/**
 * Precision and recall of the deterministic docs review (findDocsImpact) at page level, over the labelled cases in
 * test/fixtures/docs-review/: each case is a code change (GitHub-style changed files with patches) against one of the
 * small docs sites in sites/, labelled with the pages that truly needed an update. A predicted page is one with at
 * least one finding. Precision and recall are micro-averaged over every case; a case labelled with no page (a
 * refactor, a dependency bump) counts each page it flags as a false positive.
 *
 *   npm run eval:docs-review
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse } from 'yaml';
import { DOCS_CONFIG_FILES, docsPagesToRead } from '../src/reviews/impact/docs-pages-to-read.js';
import { findDocsImpact, type ChangedFile, type DocsPage } from '../src/reviews/impact/find-impact.js';

export const FIXTURES = path.resolve(import.meta.dirname, '../test/fixtures/docs-review');

export interface EvalCase {
  name: string;
  description: string;
  repository: string;
  site: string;
  /**
   * When the case was written. Round 1 was written first and the extractors tuned on it; round 2 after that tuning
   * (measured untouched once, then tuned on); round 3 last, never tuned on. The README gives each round's figures.
   */
  round: number;
  expected: string[];
  files: ChangedFile[];
}

export interface CaseResult {
  name: string;
  round?: number;
  expected: string[];
  predicted: string[];
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
}

export interface Evaluation {
  cases: CaseResult[];
  precision: number;
  recall: number;
}

function listFiles(root: string, dir = ''): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = dir ? `${dir}/${entry.name}` : entry.name;
    return entry.isDirectory() ? listFiles(root, rel) : [rel];
  });
}

export function loadCases(fixtures = FIXTURES): EvalCase[] {
  const dir = path.join(fixtures, 'cases');
  return fs
    .readdirSync(dir)
    .sort()
    .map((name) => {
      const raw = parse(fs.readFileSync(path.join(dir, name, 'case.yaml'), 'utf8')) as Omit<EvalCase, 'name'>;
      return { name, ...raw, round: raw.round ?? 1, expected: raw.expected ?? [] };
    });
}

/** A site's pages as a review reads them: the tree, the config files present, then docsPagesToRead. */
export function loadSite(site: string, fixtures = FIXTURES): DocsPage[] {
  const root = path.join(fixtures, 'sites', site);
  const paths = listFiles(root);
  const configs = new Map(
    DOCS_CONFIG_FILES.filter((file) => paths.includes(file)).map((file) => [
      file,
      fs.readFileSync(path.join(root, file), 'utf8'),
    ]),
  );
  return docsPagesToRead({ paths, configs }).pages.map((page) => ({
    path: page,
    text: fs.readFileSync(path.join(root, page), 'utf8'),
  }));
}

export function scoreCase(name: string, expected: string[], predicted: string[]): CaseResult {
  const truth = new Set(expected);
  const guessed = new Set(predicted);
  const truePositives = [...guessed].filter((page) => truth.has(page)).length;
  return {
    name,
    expected: [...truth].sort(),
    predicted: [...guessed].sort(),
    truePositives,
    falsePositives: guessed.size - truePositives,
    falseNegatives: truth.size - truePositives,
  };
}

/** Micro-averaged; a ratio with nothing to divide is 1 (no prediction made, nothing wrong; nothing to find, none missed). */
export function summarize(cases: CaseResult[]): Evaluation {
  const sum = (pick: (c: CaseResult) => number) => cases.reduce((total, c) => total + pick(c), 0);
  const tp = sum((c) => c.truePositives);
  const fp = sum((c) => c.falsePositives);
  const fn = sum((c) => c.falseNegatives);
  return { cases, precision: tp + fp === 0 ? 1 : tp / (tp + fp), recall: tp + fn === 0 ? 1 : tp / (tp + fn) };
}

export function evaluate(fixtures = FIXTURES): Evaluation {
  const sites = new Map<string, DocsPage[]>();
  const results = loadCases(fixtures).map((c) => {
    if (!sites.has(c.site)) sites.set(c.site, loadSite(c.site, fixtures));
    const impact = findDocsImpact({ files: c.files, pages: sites.get(c.site)! });
    return {
      ...scoreCase(
        c.name,
        c.expected,
        impact.findings.map((f) => f.page),
      ),
      round: c.round,
    };
  });
  return summarize(results);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const { cases, precision, recall } = evaluate();
  for (const c of cases) {
    const mark = c.falsePositives === 0 && c.falseNegatives === 0 ? 'ok  ' : 'MISS';
    const extra = c.predicted.filter((p) => !c.expected.includes(p));
    const missed = c.expected.filter((p) => !c.predicted.includes(p));
    console.log(
      `${mark} ${c.name}${extra.length ? `  false positives: ${extra.join(', ')}` : ''}${missed.length ? `  missed: ${missed.join(', ')}` : ''}`,
    );
  }
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  console.log(
    `\n${cases.length} cases: precision ${pct(precision)}, recall ${pct(recall)} (page level, micro-averaged)`,
  );
  for (const round of [...new Set(cases.map((c) => c.round))].sort()) {
    const part = summarize(cases.filter((c) => c.round === round));
    console.log(
      `  round ${round}: ${part.cases.length} cases, precision ${pct(part.precision)}, recall ${pct(part.recall)}`,
    );
  }
}
