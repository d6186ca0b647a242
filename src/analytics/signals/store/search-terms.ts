import { type CountsFamily, RangeCounts, readDayCounts } from '../../store/day-counts.js';
import type { Sql } from '../../store/sql.js';
import { compareCodePoints } from '../../reports/compare-code-points.js';
import { weightedPage } from '../../reports/weighted-page.js';
import { CLICK_COUNTS, daysStoredSince, rawRanges, SEARCH_COUNTS, splitWindow } from './signal-rollups.js';
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

/**
 * How one family is tallied from the stored searches of a window's partial and stale days: its query over the rows
 * (`where` picks the window's part and the snapshot; `only` the terms asked for, or nothing), and how a row it
 * returns adds to the tally.
 */
interface StoredTally {
  family: CountsFamily;
  select: (where: string, only: string) => string;
  add: (tally: RangeCounts, row: unknown[]) => void;
}

/** searches (keys `[query]`: hits, last), result clicks apart */
const SEARCHES: StoredTally = {
  family: SEARCH_COUNTS,
  select: (where, only) =>
    `SELECT "query", COUNT(*), MAX("ts") FROM "AnalyticsSearch"
      WHERE ${where} AND "clickedPath" IS NULL${only} GROUP BY "query"`,
  add: (tally, [query, hits, last]) => tally.add([query as string], [Number(hits), Number(last)]),
};

/** result clicks (keys `[query, path]`: clicks) */
const CLICKS: StoredTally = {
  family: CLICK_COUNTS,
  select: (where, only) =>
    `SELECT "query", "clickedPath", COUNT(*) FROM "AnalyticsSearch"
      WHERE ${where} AND "clickedPath" IS NOT NULL${only} GROUP BY "query", "clickedPath"`,
  add: (tally, [query, path, clicks]) => tally.add([query as string, path as string], [Number(clicks)]),
};

/**
 * Tallies a window's searches, result clicks apart (keys `[query]`: hits, last): whole days from the per-day counts
 * (one GROUP BY), the partial days at the edges and days with searches stored since the listing's first
 * page from the rows up to its snapshot. One snapshot, so no write falls between finding those days and reading. The clicks are tallied apart (tallyClicks), for the terms of a page only.
 */
export function tallySearches(sql: Sql, window: ListWindow): Promise<RangeCounts> {
  return readWindow(sql, window, SEARCHES);
}

/**
 * The result clicks of some terms (every term when none are given) over the window (keys `[query, path]`: clicks), read as tallySearches reads the
 * searches. In a transaction of its own: whatever was stored since the other's, the window's rows up to its snapshot
 * are the same, so the answers agree. It finds the days stored since the snapshot again rather than taking the
 * other's: a day that gained searches between the two transactions has per-day counts past the snapshot now.
 */
export function tallyClicks(sql: Sql, window: ListWindow, queries?: string[]): Promise<RangeCounts> {
  return readWindow(sql, window, CLICKS, queries);
}

/** One family over the window: whole days from the per-day counts, the rest from the rows up to the snapshot. */
function readWindow(sql: Sql, window: ListWindow, stored: StoredTally, queries?: string[]): Promise<RangeCounts> {
  const { projectId } = window;
  const { family } = stored;
  return sql.snapshot(async (tx) => {
    const split = splitWindow(window, await daysStoredSince(tx, { table: 'AnalyticsSearch', window }));
    const tally = split.days
      ? await readDayCounts(tx, {
          family,
          projectId,
          fromDay: split.days[0],
          toDay: split.days[1],
          skip: new Set(split.stale),
          firsts: queries,
        })
      : new RangeCounts(family);
    const raw = rawRanges(split);
    if (!raw.params.length || queries?.length === 0) return tally;
    const only = queries ? ` AND "query" IN (${queries.map(() => '?').join(', ')})` : '';
    const rows = await tx.rows(stored.select(`"projectId" = ? AND "id" <= ? AND ${raw.where}`, only), [
      projectId,
      window.snapshot,
      ...raw.params,
      ...(queries ?? []),
    ]);
    for (const row of rows) stored.add(tally, row);
    return tally;
  });
}

/** Search terms by hits descending, then term in code-point order, after the keyset position when given. */
export function searchTermsPage(
  terms: RangeCounts,
  params: { after: SearchTermKey | undefined; limit: number; only?: ReadonlySet<string> },
): SearchTermRow[] {
  const [hits, last] = terms.values;
  const query = (id: number) => terms.keys.value(id, 0) as string;
  const { after, only } = params;
  const listed = only ? terms.present.filter((id) => only.has(query(id))) : terms.present;
  const ids = after
    ? listed.filter(
        (id) => hits[id] < after[0] || (hits[id] === after[0] && compareCodePoints(query(id), after[1]) > 0),
      )
    : listed;
  const page = weightedPage(
    ids,
    (id) => hits[id],
    (a, b) => compareCodePoints(query(a), query(b)),
    {
      offset: 0,
      limit: params.limit,
    },
  );
  return page.rows.map((id) => ({ query: query(id), hits: hits[id], last: last[id] }));
}

/** What readers clicked among a term's results: how many clicks, and the page clicked most. */
export interface TermClicks {
  clicks: number;
  /** ties: first path in code-point order */
  topPath: string;
}

/** The result clicks of some terms, from their tally (tallyClicks); a term nobody clicked is left out. */
export function termClicks(clicks: RangeCounts, queries: string[]): Map<string, TermClicks> {
  const { keys } = clicks;
  const [count] = clicks.values;
  // each term's place in `queries`
  const slots = new Map(queries.map((query, slot) => [query, slot]));
  const sums = new Float64Array(queries.length);
  const best = new Float64Array(queries.length).fill(-1);
  const topPaths: string[] = queries.map(() => '');
  for (const id of clicks.present) {
    const slot = slots.get(keys.value(id, 0) as string);
    if (slot === undefined) continue;
    const n = count[id];
    sums[slot] += n;
    if (n < best[slot]) continue;
    // a path's text is read only for a count at least the term's best so far
    const path = keys.value(id, 1) as string;
    if (n > best[slot] || compareCodePoints(path, topPaths[slot]) < 0) {
      best[slot] = n;
      topPaths[slot] = path;
    }
  }
  const found = new Map<string, TermClicks>();
  queries.forEach((query, slot) => {
    if (sums[slot] > 0) found.set(query, { clicks: sums[slot], topPath: topPaths[slot] });
  });
  return found;
}

/** All searches in the window (of the terms `only`, when given), result clicks apart. */
export function totalSearches(terms: RangeCounts, only?: ReadonlySet<string>): number {
  const [hits] = terms.values;
  let total = 0;
  for (const id of terms.present) if (!only || only.has(terms.keys.value(id, 0) as string)) total += hits[id];
  return total;
}

/** The terms a reader clicked a result of to reach `path` (from a tally of every term's clicks). */
export function termsLeadingTo(clicks: RangeCounts, path: string): Set<string> {
  const [count] = clicks.values;
  const terms = new Set<string>();
  for (const id of clicks.present)
    if (count[id] > 0 && clicks.keys.value(id, 1) === path) terms.add(clicks.keys.value(id, 0) as string);
  return terms;
}
