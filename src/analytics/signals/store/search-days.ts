import { DAY_MS } from '../../../calendar.js';
import type { Sql } from '../../store/sql.js';

/**
 * The per-day counts of searches (`AnalyticsDaySearches`: per day and term, result clicks apart) and result clicks
 * (`AnalyticsDaySearchClicks`: per day, term and page), kept in the transaction that stores the searches: the problems
 * queue finds a range's search gaps in them (reports/search-gaps.ts) instead of grouping every search of the range.
 */

const DAY = `CAST("ts" / ${DAY_MS} AS INTEGER)`;

/** Adds stored searches and result clicks to the per-day counts. */
export async function countStoredSearches(
  tx: Sql,
  params: { projectId: string; rows: { ts: number; query: string; clickedPath: string | null }[] },
): Promise<void> {
  const { projectId, rows } = params;
  const terms = new Map<string, { day: number; query: string; hits: number; last: number }>();
  const clicks = new Map<string, { day: number; query: string; path: string; clicks: number }>();
  for (const r of rows) {
    const day = Math.floor(r.ts / DAY_MS);
    if (r.clickedPath === null) {
      const key = JSON.stringify([day, r.query]);
      const t = terms.get(key) ?? { day, query: r.query, hits: 0, last: r.ts };
      t.hits++;
      t.last = Math.max(t.last, r.ts);
      terms.set(key, t);
    } else {
      const key = JSON.stringify([day, r.query, r.clickedPath]);
      const c = clicks.get(key) ?? { day, query: r.query, path: r.clickedPath, clicks: 0 };
      c.clicks++;
      clicks.set(key, c);
    }
  }
  const greatest = tx.provider === 'sqlite' ? 'MAX' : 'GREATEST';
  await tx.insertMany({
    table: 'AnalyticsDaySearches',
    columns: [
      ['projectId', 'text'],
      ['day', 'int'],
      ['query', 'text'],
      ['hits', 'int'],
      ['last', 'bigint'],
    ],
    rows: [...terms.values()].map((t) => [projectId, t.day, t.query, t.hits, t.last]),
    suffix:
      'ON CONFLICT ("projectId", "day", "query") DO UPDATE SET "hits" = "AnalyticsDaySearches"."hits" + excluded."hits", ' +
      `"last" = ${greatest}("AnalyticsDaySearches"."last", excluded."last")`,
  });
  await tx.insertMany({
    table: 'AnalyticsDaySearchClicks',
    columns: [
      ['projectId', 'text'],
      ['day', 'int'],
      ['query', 'text'],
      ['path', 'text'],
      ['clicks', 'int'],
    ],
    rows: [...clicks.values()].map((c) => [projectId, c.day, c.query, c.path, c.clicks]),
    suffix:
      'ON CONFLICT ("projectId", "day", "query", "path") DO UPDATE SET "clicks" = "AnalyticsDaySearchClicks"."clicks" + excluded."clicks"',
  });
}

/** A project's per-day search counts recounted from its searches (a rebuild), in the caller's transaction. */
export async function recountSearchDays(tx: Sql, projectId: string): Promise<void> {
  for (const table of ['AnalyticsDaySearches', 'AnalyticsDaySearchClicks'])
    await tx.run(`DELETE FROM "${table}" WHERE "projectId" = ?`, [projectId]);
  await tx.run(
    `INSERT INTO "AnalyticsDaySearches" ("projectId", "day", "query", "hits", "last")
     SELECT "projectId", ${DAY}, "query", COUNT(*), MAX("ts") FROM "AnalyticsSearch"
      WHERE "projectId" = ? AND "clickedPath" IS NULL GROUP BY "projectId", ${DAY}, "query"`,
    [projectId],
  );
  await tx.run(
    `INSERT INTO "AnalyticsDaySearchClicks" ("projectId", "day", "query", "path", "clicks")
     SELECT "projectId", ${DAY}, "query", "clickedPath", COUNT(*) FROM "AnalyticsSearch"
      WHERE "projectId" = ? AND "clickedPath" IS NOT NULL GROUP BY "projectId", ${DAY}, "query", "clickedPath"`,
    [projectId],
  );
}
