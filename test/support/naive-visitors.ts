import type { Sql } from '../../src/analytics/store/sql.js';
import type { TimeRange } from '../../src/calendar.js';

type Counts = { human: number; ai: number; total: number };

/**
 * The export answered the obvious way, COUNT(DISTINCT …) over raw events. Used to check the folded day sets
 * against the raw data (tests) and as the baseline in the benchmark; too slow for serving at scale.
 */
export async function naiveVisitors(params: {
  sql: Sql;
  projectId: string;
  range: TimeRange;
  limit: number;
  offset: number;
}) {
  const { sql, projectId, range, limit, offset } = params;
  const where = 'e."projectId" = ? AND e."ts" >= ? AND e."ts" < ? AND e."kind" > 0';
  const counts = `COUNT(DISTINCT CASE WHEN e."kind" = 1 THEN e."visitorId" END) AS human,
    COUNT(DISTINCT CASE WHEN e."kind" = 2 THEN e."visitorId" END) AS ai, COUNT(DISTINCT e."visitorId") AS total`;
  const collate = sql.provider === 'postgresql' ? ' COLLATE "C"' : '';
  const rows = await sql.query<Counts & { path: string }>(
    `SELECT p."path" AS path, ${counts} FROM "AnalyticsEvent" e JOIN "AnalyticsPage" p ON p."id" = e."pageId"
     WHERE ${where} GROUP BY p."path" ORDER BY total DESC, p."path"${collate} ASC LIMIT ? OFFSET ?`,
    [projectId, range.from, range.to, limit + 1, offset],
  );
  const [totals] = await sql.query<Counts>(`SELECT ${counts} FROM "AnalyticsEvent" e WHERE ${where}`, [
    projectId,
    range.from,
    range.to,
  ]);
  const num = (c: Counts) => ({ human: Number(c.human), ai: Number(c.ai), total: Number(c.total) });
  return {
    totals: num(totals),
    visitors: rows.slice(0, limit).map((r) => ({ path: r.path, ...num(r) })),
    hasMore: rows.length > limit,
  };
}
