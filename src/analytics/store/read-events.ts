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

export type PageEvent = { pageId: number; visitorId: number; kind: number; agent: string | null; ts: number };

/** Counted raw events of some pages in the range, with their agent (the edges of a report about a few pages). */
export async function pageEvents(
  sql: Sql,
  params: { projectId: string; range: TimeRange; pageIds: readonly number[] },
): Promise<PageEvent[]> {
  if (!params.pageIds.length) return [];
  const rows = await sql.rows(
    `SELECT "pageId", "visitorId", "kind", "agent", "ts" FROM "AnalyticsEvent"
      WHERE "projectId" = ? AND "ts" >= ? AND "ts" < ? AND "kind" > 0
        AND "pageId" IN (${params.pageIds.map(() => '?').join(', ')})`,
    [params.projectId, params.range.from, params.range.to, ...params.pageIds],
  );
  return rows.map(([pageId, visitorId, kind, agent, ts]) => ({
    pageId: Number(pageId),
    visitorId: Number(visitorId),
    kind: Number(kind),
    agent: agent as string | null,
    ts: Number(ts),
  }));
}
