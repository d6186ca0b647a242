import type { TimeRange } from '../../calendar.js';
import type { Sql } from './sql.js';
import { KIND } from './day-sets.js';

/** Counted (human and AI) raw events in the range, for the partial days at the edges of a report's range. */
export async function rawEvents(
  sql: Sql,
  params: { projectId: string; range: TimeRange },
): Promise<{ pageId: number; visitorId: number; kind: number }[]> {
  const rows = await sql.query<{ pageId: number; visitorId: number; kind: number }>(
    'SELECT "pageId", "visitorId", "kind" FROM "AnalyticsEvent" WHERE "projectId" = ? AND "ts" >= ? AND "ts" < ? AND "kind" > 0',
    [params.projectId, params.range.from, params.range.to],
  );
  return rows.map((r) => ({ pageId: Number(r.pageId), visitorId: Number(r.visitorId), kind: Number(r.kind) }));
}

/** AI page views in the range by agent name (null when unnamed): distinct visitors and views. */
export async function agentCounts(
  sql: Sql,
  params: { projectId: string; range: TimeRange },
): Promise<{ agent: string | null; visitors: number; views: number }[]> {
  const rows = await sql.query<{ agent: string | null; visitors: number | string; views: number | string }>(
    `SELECT "agent" AS agent, COUNT(DISTINCT "visitorId") AS visitors, COUNT(*) AS views
         FROM "AnalyticsEvent"
        WHERE "projectId" = ? AND "ts" >= ? AND "ts" < ? AND "kind" = ${KIND.ai}
        GROUP BY "agent"`,
    [params.projectId, params.range.from, params.range.to],
  );
  return rows.map((r) => ({ agent: r.agent, visitors: Number(r.visitors), views: Number(r.views) }));
}
