import type { TimeRange } from '../../calendar.js';
import type { Sql } from '../store/sql.js';
import { type DayBlobs, loadDayBlobs } from '../store/read-days.js';
import { rawEvents } from '../store/read-events.js';
import { type Planning, rangeDays, type DayFamily } from './range-days.js';
import type { DayCache } from '../store/day-cache.js';

/**
 * What the page-view reports read: the day sets of the range's derived whole days, day by day as stored (or one
 * page's share of them), and the raw events of the rest (see store/split-range.ts planRange).
 */

export type EdgeEvent = { pageId: number; visitorId: number; kind: number };

/** Day sets as stored, counted in place (store/day-sets.ts); with a page, that page's share of them (loadDayBlobs). */
const DAY_SETS = (sql: Sql, pageId?: number): DayFamily<DayBlobs> => ({
  name: pageId === undefined ? 'day sets' : `day sets of page ${pageId}`,
  loadDays: (projectId, days) => loadDayBlobs(sql, { projectId, days, pageId }),
  empty: () => ({ blobs: new Map(), bytes: 0 }),
});

/** Appends `items` to the list `key` names in `lists`, starting the list when there is none. */
export function pushTo<K, V>(lists: Map<K, V[]>, key: K, ...items: V[]): void {
  const list = lists.get(key);
  if (list) list.push(...items);
  else lists.set(key, items);
}

type Params = Planning & { cache: DayCache };

/** The range's visitors: its whole days' stored sets, day by day, and the events of its edges. */
export async function gatherDayBlobs(params: Params): Promise<{ days: DayBlobs[]; edges: EdgeEvent[] }> {
  const { sql, projectId } = params;
  const { days, edges } = await rangeDays(params, DAY_SETS(sql));
  const raw: EdgeEvent[] = [];
  // one by one: spread into push, an edge's events overflow the stack past about 150,000 of them (a rebuild, or a
  // fold far behind, reads a whole range raw)
  for (const edge of edges) for (const event of await rawEvents(sql, { projectId, range: edge })) raw.push(event);
  return { days, edges: raw };
}

/** One page's share of the range's day sets (no other page's read), and the ranges to read raw. */
export function pageSetDays(params: Params & { pageId: number }): Promise<{ days: DayBlobs[]; edges: TimeRange[] }> {
  return rangeDays(params, DAY_SETS(params.sql, params.pageId));
}
