import type { Sql } from '../../store/sql.js';
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

/** What readers clicked among a term's results: how many clicks, and the page clicked most. */
export interface TermClicks {
  clicks: number;
  /** ties: first path in code-point order */
  topPath: string;
}

/** A window's searches: each term's searches, and its result clicks per clicked page. */
export interface SearchTally {
  terms: SearchTermRow[];
  /** per term: clicked page → clicks */
  clicks: Map<string, Map<string, number>>;
}

/**
 * Tallies a window's searches and result clicks in one GROUP BY along the (project, time) index: the rows up to the
 * window's snapshot, by term and clicked page (none: a search).
 */
export async function tallySearches(sql: Sql, window: ListWindow): Promise<SearchTally> {
  const rows = await sql.rows(
    `SELECT "query", "clickedPath", COUNT(*), MAX("ts") FROM "AnalyticsSearch"
      WHERE "projectId" = ? AND "ts" >= ? AND "ts" < ? AND "id" <= ? GROUP BY "query", "clickedPath"`,
    [window.projectId, window.from, window.to, window.snapshot],
  );
  const tally: SearchTally = { terms: [], clicks: new Map() };
  for (const [query, path, count, last] of rows as [string, string | null, unknown, unknown][]) {
    if (path === null) tally.terms.push({ query, hits: Number(count), last: Number(last) });
    else {
      let pages = tally.clicks.get(query);
      if (!pages) tally.clicks.set(query, (pages = new Map()));
      pages.set(path, Number(count));
    }
  }
  return tally;
}

/** A term's result clicks in the tally (undefined when nobody clicked one). */
export function termClicks(tally: SearchTally, query: string): TermClicks | undefined {
  const pages = tally.clicks.get(query);
  if (!pages) return undefined;
  let clicks = 0;
  let top: [string, number] | undefined;
  for (const [path, n] of pages) {
    clicks += n;
    if (!top || n > top[1] || (n === top[1] && compareCodePoints(path, top[0]) < 0)) top = [path, n];
  }
  return top && { clicks, topPath: top[0] };
}

/** The terms a reader clicked a result of to reach `path`. */
export function termsLeadingTo(tally: SearchTally, path: string): Set<string> {
  const terms = new Set<string>();
  for (const [query, pages] of tally.clicks) if (pages.has(path)) terms.add(query);
  return terms;
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
