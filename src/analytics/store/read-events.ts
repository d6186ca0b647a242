import type { TimeRange } from '../../calendar.js';
import type { Sql } from './sql.js';
import { KIND } from './day-sets.js';
import { VIA_PREFIX } from './write-events.js';

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

/** Views of one page by one class within a day, by time: `visitors[i]` viewed at `ts[i]`, ts ascending. */
export interface TimedVisitors {
  ts: Float64Array;
  visitors: Uint32Array;
}

/** A UTC day's counted raw events, per page: its humans, AI agents, and the humans an AI assistant's answer sent. */
export interface DayEvents {
  pages: Map<number, { human: TimedVisitors; ai: TimedVisitors; referred: TimedVisitors }>;
  bytes: number;
}

/**
 * A project's counted raw events of one UTC day (`[from, to)` of it), every page's, packed by page and class in
 * time order: any part of the day is then a slice of each page's arrays.
 */
export async function dayEvents(sql: Sql, params: { projectId: string; range: TimeRange }): Promise<DayEvents> {
  const rows = await sql.rows(
    `SELECT "pageId", "visitorId", "kind", "agent", "ts" FROM "AnalyticsEvent"
      WHERE "projectId" = ? AND "ts" >= ? AND "ts" < ? AND "kind" > 0 ORDER BY "ts"`,
    [params.projectId, params.range.from, params.range.to],
  );
  // per page: times and visitors of humans, AI agents, referred humans
  const columns = new Map<number, number[][]>();
  for (const [pageId, visitorId, kind, agent, ts] of rows) {
    const page = Number(pageId);
    let found = columns.get(page);
    if (!found) columns.set(page, (found = [[], [], [], [], [], []]));
    const at = Number(ts);
    const visitor = Number(visitorId);
    const column = Number(kind) === KIND.ai ? 2 : 0;
    found[column].push(at);
    found[column + 1].push(visitor);
    if (column === 0 && typeof agent === 'string' && agent.startsWith(VIA_PREFIX)) {
      found[4].push(at);
      found[5].push(visitor);
    }
  }
  const timed = (ts: number[], visitors: number[]) => ({
    ts: Float64Array.from(ts),
    visitors: Uint32Array.from(visitors),
  });
  const pages: DayEvents['pages'] = new Map();
  let bytes = 0;
  for (const [page, [ht, hv, at, av, rt, rv]] of columns) {
    pages.set(page, { human: timed(ht, hv), ai: timed(at, av), referred: timed(rt, rv) });
    bytes += (ht.length + at.length + rt.length) * 12 + 64;
  }
  return { pages, bytes };
}
