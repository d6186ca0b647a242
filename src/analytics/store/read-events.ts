import type { TimeRange } from '../../calendar.js';
import type { Sql } from './sql.js';

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
