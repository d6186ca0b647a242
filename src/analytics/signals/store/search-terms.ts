import type { Param, Sql } from '../../store/sql.js';
import { countedDays, daysStoredSince, rawRanges, splitWindow } from './signal-rollups.js';
import { codePointCollation } from './code-point-order.js';
import type { ListWindow } from './list-window.js';

/** A search term's searches in a window (result clicks apart): how many, and the last one's time. */
export interface SearchTermRow {
  query: string;
  hits: number;
  /** epoch ms */
  last: number;
}

export interface SearchClicks {
  query: string;
  path: string;
  clicks: number;
}

/** keyset position of the last term a page returned: its hits, then the term */
export type SearchTermKey = [number, string];

/**
 * A window's searches (result clicks apart, or clicks) as one FROM source with its parameters: whole days from the
 * per-day counts, the partial days at the edges and days with searches stored since the listing's first page from
 * the rows up to its snapshot. Call under the write lock (`read`), so no write falls between finding those days and
 * reading.
 */
async function windowSource(
  tx: Sql,
  window: ListWindow,
  clicks: boolean,
): Promise<{ source: string; params: Param[] }> {
  const split = splitWindow(window, await daysStoredSince(tx, { table: 'AnalyticsSearch', window }));
  const raw = rawRanges(split);
  const days = countedDays(split);
  const rows = `FROM "AnalyticsSearch" WHERE "projectId" = ? AND "id" <= ? AND ${raw.where}`;
  const source = clicks
    ? `(SELECT "query", "clickedPath" AS "path", 1 AS "n" ${rows} AND "clickedPath" IS NOT NULL UNION ALL ` +
      `SELECT "query", "path", "clicks" FROM "AnalyticsDaySearchClicks" WHERE "projectId" = ? AND ${days.where}) u`
    : `(SELECT "query", 1 AS "hits", "ts" AS "last" ${rows} AND "clickedPath" IS NULL UNION ALL ` +
      `SELECT "query", "hits", "last" FROM "AnalyticsDaySearches" WHERE "projectId" = ? AND ${days.where}) u`;
  return {
    source,
    params: [window.projectId, window.snapshot, ...raw.params, window.projectId, ...days.params],
  };
}

/** Search terms by hits descending, then term in code-point order, after the keyset position when given. */
export function selectSearchTerms(
  sql: Sql,
  params: { window: ListWindow; after: SearchTermKey | undefined; limit: number },
): Promise<SearchTermRow[]> {
  return sql.transaction(async (tx) => {
    const binary = codePointCollation(tx);
    const { source, params: values } = await windowSource(tx, params.window, false);
    let having = '';
    if (params.after) {
      having = `HAVING SUM("hits") < ? OR (SUM("hits") = ? AND "query" COLLATE ${binary} > ?)`;
      values.push(params.after[0], params.after[0], params.after[1]);
    }
    const terms = await tx.query<{ query: string; hits: unknown; last: unknown }>(
      `SELECT "query", SUM("hits") AS hits, MAX("last") AS last FROM ${source} ` +
        `GROUP BY "query" ${having} ORDER BY hits DESC, "query" COLLATE ${binary} ASC LIMIT ?`,
      [...values, params.limit],
    );
    return terms.map((t) => ({ query: t.query, hits: Number(t.hits), last: Number(t.last) }));
  });
}

/** Clicks on the results of some terms in a window, per term and clicked page. */
export function selectSearchClicks(
  sql: Sql,
  params: { window: ListWindow; queries: string[] },
): Promise<SearchClicks[]> {
  if (!params.queries.length) return Promise.resolve([]);
  return sql.transaction(async (tx) => {
    const { source, params: values } = await windowSource(tx, params.window, true);
    const clicks = await tx.query<{ query: string; path: string; n: unknown }>(
      `SELECT "query", "path", SUM("n") AS n FROM ${source} ` +
        `WHERE "query" IN (${params.queries.map(() => '?').join(', ')}) GROUP BY "query", "path"`,
      [...values, ...params.queries],
    );
    return clicks.map((c) => ({ query: c.query, path: c.path, clicks: Number(c.n) }));
  });
}

/** All searches in a window, result clicks apart. */
export function countSearches(sql: Sql, window: ListWindow): Promise<number> {
  return sql.transaction(async (tx) => {
    const { source, params } = await windowSource(tx, window, false);
    const [total] = await tx.query<{ n: unknown }>(`SELECT SUM("hits") AS n FROM ${source}`, params);
    return Number(total.n ?? 0);
  });
}
