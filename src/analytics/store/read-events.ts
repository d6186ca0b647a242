import { DAY_MS, type TimeRange } from '../../calendar.js';
import { IN_CHUNK, type Sql } from './sql.js';
import { KIND } from './day-sets.js';
import { VIA_PREFIX } from './write-events.js';
import {
  addView,
  packViews,
  pageViewsBytes,
  pendingViews,
  type DayEvents,
  type PendingViews,
} from './page-day-views.js';

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

/**
 * Some pages' counted raw events of one UTC day (at most IN_CHUNK pages, one `IN (…)` list), packed by page and class
 * in time order: any part of the day is then a slice of each page's arrays. The database still walks the day's events
 * by time, but only theirs cross into the process, which is what a day's read costs (about a microsecond an event).
 */
export async function dayEvents(
  sql: Sql,
  params: { projectId: string; day: number; pageIds: readonly number[] },
): Promise<DayEvents> {
  const start = params.day * DAY_MS;
  const { pageIds } = params;
  if (pageIds.length > IN_CHUNK) throw new RangeError(`at most ${IN_CHUNK} pages a read`);
  const onPages = `AND "pageId" IN (${pageIds.map(() => '?').join(', ') || 'NULL'})`;
  // the agent of an AI view and of a human an assistant sent alone: a plain human's carries nothing counted here
  const rows = await sql.rows(
    `SELECT "pageId", "visitorId", "kind",
            CASE WHEN "kind" = ${KIND.ai} OR substr("agent", 1, ${VIA_PREFIX.length}) = ? THEN "agent" END, "ts"
       FROM "AnalyticsEvent" WHERE "projectId" = ? AND "ts" >= ? AND "ts" < ? AND "kind" > 0 ${onPages} ORDER BY "ts"`,
    [VIA_PREFIX, params.projectId, start, start + DAY_MS, ...pageIds],
  );
  const added = new Map<number, PendingViews>();
  for (const [pageId, visitorId, kind, agent, ts] of rows) {
    const page = Number(pageId);
    let views = added.get(page);
    if (!views) added.set(page, (views = pendingViews()));
    addView(views, Number(kind), agent as string | null, Number(ts) - start, Number(visitorId));
  }
  const pages: DayEvents['pages'] = new Map();
  let bytes = 0;
  for (const [page, views] of added) {
    const packed = packViews(views);
    pages.set(page, packed);
    bytes += pageViewsBytes(packed);
  }
  return { start, pages, bytes };
}
