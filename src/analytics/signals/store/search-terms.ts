import { inChunks, type Sql } from '../../store/sql.js';
import { compareCodePoints } from '../../reports/compare-code-points.js';
import { weightedPage } from '../../reports/weighted-page.js';
import type { ListWindow } from './list-window.js';

/** A search term's searches in a window (result clicks apart): how many, and the last one's time. */
export interface SearchTermRow {
  query: string;
  hits: number;
  /** epoch ms */
  last: number;
}

/** keyset position of the last term a page returned: its hits, then the term */
export type SearchTermKey = [number, string];

/** The window's conditions on the stored searches: its project, range and the rows up to its snapshot. */
const inWindow = (window: ListWindow) => ({
  where: '"projectId" = ? AND "ts" >= ? AND "ts" < ? AND "id" <= ?',
  params: [window.projectId, window.from, window.to, window.snapshot],
});

/** Every term's searches in the window, result clicks apart: one GROUP BY along the (project, time) index. */
export async function tallySearches(sql: Sql, window: ListWindow): Promise<SearchTermRow[]> {
  const { where, params } = inWindow(window);
  const rows = await sql.rows(
    `SELECT "query", COUNT(*), MAX("ts") FROM "AnalyticsSearch" WHERE ${where} AND "clickedPath" IS NULL GROUP BY "query"`,
    params,
  );
  return rows.map(([query, hits, last]) => ({ query: query as string, hits: Number(hits), last: Number(last) }));
}

/** What readers clicked among a term's results: how many clicks, and the page clicked most. */
export interface TermClicks {
  clicks: number;
  /** ties: first path in code-point order */
  topPath: string;
}

/** The result clicks of some terms over the window; a term nobody clicked is left out. */
export async function termClicks(sql: Sql, window: ListWindow, queries: string[]): Promise<Map<string, TermClicks>> {
  const { where, params } = inWindow(window);
  // each term's clicks, its top page and that page's clicks (`best`)
  const found = new Map<string, TermClicks & { best: number }>();
  for (const some of inChunks(queries)) {
    const rows = await sql.rows(
      `SELECT "query", "clickedPath", COUNT(*) FROM "AnalyticsSearch" WHERE ${where} AND "clickedPath" IS NOT NULL
          AND "query" IN (${some.map(() => '?').join(', ')}) GROUP BY "query", "clickedPath"`,
      [...params, ...some],
    );
    for (const [query, path, count] of rows as [string, string, unknown][]) {
      const n = Number(count);
      const term = found.get(query) ?? { clicks: 0, topPath: path, best: n };
      term.clicks += n;
      if (n > term.best || (n === term.best && compareCodePoints(path, term.topPath) < 0)) {
        term.best = n;
        term.topPath = path;
      }
      found.set(query, term);
    }
  }
  return found;
}

/** The terms a reader clicked a result of to reach `path` in the window. */
export async function termsLeadingTo(sql: Sql, window: ListWindow, path: string): Promise<Set<string>> {
  const { where, params } = inWindow(window);
  const rows = await sql.rows(`SELECT DISTINCT "query" FROM "AnalyticsSearch" WHERE ${where} AND "clickedPath" = ?`, [
    ...params,
    path,
  ]);
  return new Set(rows.map(([query]) => query as string));
}

/** Search terms by hits descending, then term in code-point order, after the keyset position when given. */
export function searchTermsPage(
  terms: readonly SearchTermRow[],
  params: { after: SearchTermKey | undefined; limit: number; only?: ReadonlySet<string> },
): SearchTermRow[] {
  const { after, only } = params;
  const listed = terms.filter(
    (t) =>
      (!only || only.has(t.query)) &&
      (!after || t.hits < after[0] || (t.hits === after[0] && compareCodePoints(t.query, after[1]) > 0)),
  );
  return weightedPage(
    listed,
    (t) => t.hits,
    (a, b) => compareCodePoints(a.query, b.query),
    { offset: 0, limit: params.limit },
  ).rows;
}

/** All searches in the window (of the terms `only`, when given), result clicks apart. */
export function totalSearches(terms: readonly SearchTermRow[], only?: ReadonlySet<string>): number {
  let total = 0;
  for (const t of terms) if (!only || only.has(t.query)) total += t.hits;
  return total;
}
