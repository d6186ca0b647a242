import type { TimeRange } from '../../calendar.js';
import { inChunks, type Sql } from '../store/sql.js';
import { splitRange } from '../store/split-range.js';

/** A search term of the range: how often it was searched, by how many, and how often a result of it was clicked. */
export interface SearchTerm {
  /** normalised (see signals/normalize.ts) */
  query: string;
  searches: number;
  clicks: number;
  /** distinct visitors who searched it (a search without a visitor id counts as one) */
  readers: number;
  firstSeen: number;
  lastSeen: number;
}

/**
 * Search terms of the range, most readers first, then term: with `gapsOnly`, those searched at least `minSearches`
 * times whose results nobody clicked. The terms are counted from their rows, in one snapshot; with `gapsOnly` only the
 * terms the per-day counts of the range's whole days and the rows of its partial edges (searchGapCandidates) name.
 */
export async function readSearchTerms(
  sql: Sql,
  params: { projectId: string; range: TimeRange; gapsOnly: boolean; minSearches: number; queries?: string[] },
): Promise<SearchTerm[]> {
  if (params.queries && !params.queries.length) return [];
  return sql.snapshot(async (tx) => {
    const queries = params.gapsOnly ? await searchGapCandidates(tx, params) : params.queries;
    const terms: SearchTerm[] = [];
    for (const chunk of queries ? inChunks(queries) : [undefined]) {
      for (const term of await countTerms(tx, { ...params, queries: chunk })) {
        if (params.gapsOnly && (term.clicks > 0 || term.searches < params.minSearches)) continue;
        terms.push(term);
      }
    }
    return terms.sort((a, b) => b.readers - a.readers || (a.query < b.query ? -1 : a.query > b.query ? 1 : 0));
  });
}

/**
 * The terms searched at least `minSearches` times in the range with no result clicked: the whole days' from the
 * per-day counts (kept in the transaction that stores the searches, so exact for every stored row), the partial edge
 * days' from the rows. A few thousand rows of counts instead of every search's row.
 */
async function searchGapCandidates(
  tx: Sql,
  params: { projectId: string; range: TimeRange; minSearches: number },
): Promise<string[]> {
  const { projectId } = params;
  const { days, edges } = splitRange(params.range);
  const searches = new Map<string, number>();
  const clicked = new Set<string>();
  const add = (query: unknown, n: unknown) => {
    searches.set(query as string, (searches.get(query as string) ?? 0) + Number(n));
  };
  if (days) {
    const inDays = '"projectId" = ? AND "day" >= ? AND "day" < ?';
    for (const [query, n] of await tx.rows(
      `SELECT "query", SUM("hits") FROM "AnalyticsDaySearches" WHERE ${inDays} GROUP BY "query"`,
      [projectId, ...days],
    ))
      add(query, n);
    for (const [query] of await tx.rows(
      `SELECT DISTINCT "query" FROM "AnalyticsDaySearchClicks" WHERE ${inDays} AND "clicks" > 0`,
      [projectId, ...days],
    ))
      clicked.add(query as string);
  }
  for (const edge of edges) {
    for (const [query, n, clicks] of await tx.rows(
      `SELECT "query", SUM(CASE WHEN "clickedPath" IS NULL THEN 1 ELSE 0 END),
              SUM(CASE WHEN "clickedPath" IS NULL THEN 0 ELSE 1 END)
         FROM "AnalyticsSearch" WHERE "projectId" = ? AND "ts" >= ? AND "ts" < ? GROUP BY "query"`,
      [projectId, edge.from, edge.to],
    )) {
      add(query, n);
      if (Number(clicks) > 0) clicked.add(query as string);
    }
  }
  return [...searches].filter(([query, n]) => n >= params.minSearches && !clicked.has(query)).map(([query]) => query);
}

/** Each term's searches, clicks and readers in the range, from its rows (of the `queries` alone, when given). */
async function countTerms(
  tx: Sql,
  params: { projectId: string; range: TimeRange; queries?: string[] },
): Promise<SearchTerm[]> {
  const only = params.queries ? ` AND "query" IN (${params.queries.map(() => '?').join(', ')})` : '';
  const searched = '"clickedPath" IS NULL';
  const rows = await tx.rows(
    `SELECT "query",
        SUM(CASE WHEN ${searched} THEN 1 ELSE 0 END), SUM(CASE WHEN ${searched} THEN 0 ELSE 1 END),
        COUNT(DISTINCT CASE WHEN ${searched} THEN "visitorHash" END),
        SUM(CASE WHEN ${searched} AND "visitorHash" IS NULL THEN 1 ELSE 0 END),
        MIN("ts"), MAX("ts")
       FROM "AnalyticsSearch" WHERE "projectId" = ?${only} AND "ts" >= ? AND "ts" < ? GROUP BY "query"`,
    [params.projectId, ...(params.queries ?? []), params.range.from, params.range.to],
  );
  return rows.map(([query, searches, clicks, hashed, unhashed, first, last]) => ({
    query: query as string,
    searches: Number(searches),
    clicks: Number(clicks),
    readers: Number(hashed) + Number(unhashed),
    firstSeen: Number(first),
    lastSeen: Number(last),
  }));
}
