import type { TimeRange } from '../../calendar.js';
import type { Sql } from '../store/sql.js';

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
 * times whose results nobody clicked.
 */
export async function readSearchTerms(
  sql: Sql,
  params: { projectId: string; range: TimeRange; gapsOnly: boolean; minSearches: number; queries?: string[] },
): Promise<SearchTerm[]> {
  if (params.queries && !params.queries.length) return [];
  const only = params.queries ? ` AND "query" IN (${params.queries.map(() => '?').join(', ')})` : '';
  const searched = '"clickedPath" IS NULL';
  const rows = await sql.rows(
    `SELECT "query",
        SUM(CASE WHEN ${searched} THEN 1 ELSE 0 END), SUM(CASE WHEN ${searched} THEN 0 ELSE 1 END),
        COUNT(DISTINCT CASE WHEN ${searched} THEN "visitorHash" END),
        SUM(CASE WHEN ${searched} AND "visitorHash" IS NULL THEN 1 ELSE 0 END),
        MIN("ts"), MAX("ts")
       FROM "AnalyticsSearch" WHERE "projectId" = ? AND "ts" >= ? AND "ts" < ?${only} GROUP BY "query"`,
    [params.projectId, params.range.from, params.range.to, ...(params.queries ?? [])],
  );
  const terms: SearchTerm[] = [];
  for (const [query, searches, clicks, hashed, unhashed, first, last] of rows) {
    const term = {
      query: query as string,
      searches: Number(searches),
      clicks: Number(clicks),
      readers: Number(hashed) + Number(unhashed),
      firstSeen: Number(first),
      lastSeen: Number(last),
    };
    if (params.gapsOnly && (term.clicks > 0 || term.searches < params.minSearches)) continue;
    terms.push(term);
  }
  return terms.sort((a, b) => b.readers - a.readers || (a.query < b.query ? -1 : a.query > b.query ? 1 : 0));
}
