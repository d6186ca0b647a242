import type { Param, Sql } from '../../store/sql.js';
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

function windowWhere(window: ListWindow): { where: string; params: Param[] } {
  return {
    where: '"projectId" = ? AND "ts" >= ? AND "ts" < ? AND "id" <= ?',
    params: [window.projectId, window.from, window.to, window.snapshot],
  };
}

/** Search terms by hits descending, then term in code-point order, after the keyset position when given. */
export async function selectSearchTerms(
  sql: Sql,
  params: { window: ListWindow; after: SearchTermKey | undefined; limit: number },
): Promise<SearchTermRow[]> {
  const binary = codePointCollation(sql);
  const { where, params: values } = windowWhere(params.window);
  let having = '';
  if (params.after) {
    having = `HAVING COUNT(*) < ? OR (COUNT(*) = ? AND "query" COLLATE ${binary} > ?)`;
    values.push(params.after[0], params.after[0], params.after[1]);
  }
  const terms = await sql.query<{ query: string; hits: unknown; last: unknown }>(
    `SELECT "query", COUNT(*) AS hits, MAX("ts") AS last FROM "AnalyticsSearch" WHERE ${where} AND "clickedPath" IS NULL ` +
      `GROUP BY "query" ${having} ORDER BY hits DESC, "query" COLLATE ${binary} ASC LIMIT ?`,
    [...values, params.limit],
  );
  return terms.map((t) => ({ query: t.query, hits: Number(t.hits), last: Number(t.last) }));
}

/** Clicks on the results of some terms in a window, per term and clicked page. */
export async function selectSearchClicks(
  sql: Sql,
  params: { window: ListWindow; queries: string[] },
): Promise<SearchClicks[]> {
  if (!params.queries.length) return [];
  const { where, params: values } = windowWhere(params.window);
  const clicks = await sql.query<{ query: string; path: string; n: unknown }>(
    `SELECT "query", "clickedPath" AS path, COUNT(*) AS n FROM "AnalyticsSearch" WHERE ${where} AND "clickedPath" IS NOT NULL ` +
      `AND "query" IN (${params.queries.map(() => '?').join(', ')}) GROUP BY "query", "clickedPath"`,
    [...values, ...params.queries],
  );
  return clicks.map((c) => ({ query: c.query, path: c.path, clicks: Number(c.n) }));
}

/** All searches in a window, result clicks apart. */
export async function countSearches(sql: Sql, window: ListWindow): Promise<number> {
  const { where, params } = windowWhere(window);
  const [total] = await sql.query<{ n: unknown }>(
    `SELECT COUNT(*) AS n FROM "AnalyticsSearch" WHERE ${where} AND "clickedPath" IS NULL`,
    params,
  );
  return Number(total.n);
}
