import { DAY_MS, type TimeRange } from '../../calendar.js';
import { IN_CHUNK, type Sql } from './sql.js';
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

/** Views of one page by one class within a day, by time: `visitors[i]` viewed `at[i]` ms after the day began. */
export interface TimedVisitors {
  at: Uint32Array;
  visitors: Uint32Array;
}

/** A UTC day's counted raw events, per page: its humans, AI agents, and the humans an AI assistant's answer sent. */
export interface DayEvents {
  /** when the day began (epoch ms) */
  start: number;
  pages: Map<number, { human: TimedVisitors; ai: TimedVisitors; referred: TimedVisitors }>;
  bytes: number;
}

/** The first index of the ascending `sorted` whose value is at least `value` (its length when none is). */
export function lowerBound(sorted: Uint32Array, value: number): number {
  let [lo, hi] = [0, sorted.length];
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** What a page's views of a day take in memory, its three classes' arrays (`DayEvents.bytes` is their sum). */
export function pageEventsBytes(views: number): number {
  return views * 8 + 96;
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
  const rows = await sql.rows(
    `SELECT "pageId", "visitorId", "kind", CASE WHEN substr("agent", 1, ${VIA_PREFIX.length}) = ? THEN 1 ELSE 0 END, "ts"
       FROM "AnalyticsEvent" WHERE "projectId" = ? AND "ts" >= ? AND "ts" < ? AND "kind" > 0 ${onPages} ORDER BY "ts"`,
    [VIA_PREFIX, params.projectId, start, start + DAY_MS, ...pageIds],
  );
  // two passes: how many of each page and class, then the arrays filled in time order
  const sizes = new Map<number, number[]>();
  for (const [pageId, , kind, via] of rows) {
    const page = Number(pageId);
    let size = sizes.get(page);
    if (!size) sizes.set(page, (size = [0, 0, 0]));
    if (Number(kind) === KIND.ai) size[1]++;
    else {
      size[0]++;
      if (Number(via)) size[2]++;
    }
  }
  const timed = (n: number) => ({ at: new Uint32Array(n), visitors: new Uint32Array(n), n: 0 });
  const filling = new Map([...sizes].map(([page, [human, ai, referred]]) => [page, [human, ai, referred].map(timed)]));
  const put = (column: ReturnType<typeof timed>, at: number, visitor: number) => {
    column.at[column.n] = at;
    column.visitors[column.n++] = visitor;
  };
  for (const [pageId, visitorId, kind, via, ts] of rows) {
    const [human, ai, referred] = filling.get(Number(pageId))!;
    const at = Number(ts) - start;
    const visitor = Number(visitorId);
    if (Number(kind) === KIND.ai) put(ai, at, visitor);
    else {
      put(human, at, visitor);
      if (Number(via)) put(referred, at, visitor);
    }
  }
  const pages: DayEvents['pages'] = new Map();
  let bytes = 0;
  for (const [page, [human, ai, referred]] of filling) {
    pages.set(page, { human, ai, referred });
    bytes += pageEventsBytes(human.n + ai.n + referred.n);
  }
  return { start, pages, bytes };
}
