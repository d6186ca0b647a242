import type { TimeRange } from '../../calendar.js';
import { KIND, RoaringBitmap32, type Bitmap } from '../store/day-sets.js';
import type { Sql } from '../store/sql.js';
import { type DayBlobs, loadDayBlobs, loadDayPageSets, type StoredDaySets } from '../store/read-days.js';
import { rawEvents } from '../store/read-events.js';
import { type Planning, rangeSegments, type SegmentFamily } from './segments.js';
import type { CacheLease } from '../store/day-cache.js';

/**
 * What the page-view reports read: the day sets of the range's derived whole days — as stored, or one page's pairs as
 * cached unions of aligned segments of days — and the raw events of the rest (see store/split-range.ts planRange).
 */

export type EdgeEvent = { pageId: number; visitorId: number; kind: number };

/** Day sets as stored: read day by day, never united (store/day-sets.ts countPartVisitors counts them in place). */
const DAY_BLOBS = (sql: Sql): SegmentFamily<DayBlobs> => ({
  name: 'day sets',
  loadDay: (projectId, day) => loadDayBlobs(sql, { projectId, day }),
});

/** One page's pairs of the day sets, cut from each day's as read (loadDayPageSets); a segment their union. */
const PAGE_SETS = (sql: Sql, pageId: number): SegmentFamily<StoredDaySets> => ({
  name: `sets of page ${pageId}`,
  loadDay: (projectId, day) => loadDayPageSets(sql, { projectId, day, pageId }),
  unite: uniteSets,
});

/** Day sets of several days (or pages of them) as one: per class and part, the union of their bitmaps. */
function uniteSets(pieces: StoredDaySets[]): StoredDaySets & { owned: Bitmap[] } {
  const sets = new Map<number, Map<number, Bitmap>>();
  const owned: Bitmap[] = [];
  let bytes = 0;
  for (const kind of [KIND.human, KIND.ai]) {
    const byPart = new Map<number, Bitmap[]>();
    for (const piece of pieces) {
      for (const [part, bitmap] of piece.sets.get(kind) ?? []) pushTo(byPart, part, bitmap);
    }
    const unions = new Map<number, Bitmap>();
    for (const [part, list] of byPart) {
      const union = unionOf(list);
      bytes += union.getSerializationSizeInBytes(true);
      unions.set(part, union);
      owned.push(union);
    }
    sets.set(kind, unions);
  }
  return { sets, bytes, owned };
}

/** Appends `items` to the list `key` names in `lists`, starting the list when there is none. */
export function pushTo<K, V>(lists: Map<K, V[]>, key: K, ...items: V[]): void {
  const list = lists.get(key);
  if (list) list.push(...items);
  else lists.set(key, items);
}

/**
 * A new bitmap holding the union (of the keys in `mask` alone, when given). Accumulating in place beats orMany on
 * many small containers; starting from a copy of the largest input means the others are merged into it rather than
 * it into them.
 */
export function unionOf(list: Bitmap[], mask?: Bitmap): Bitmap {
  if (mask) {
    const union = RoaringBitmap32.and(list[0], mask);
    for (let i = 1; i < list.length; i++) {
      const masked = RoaringBitmap32.and(list[i], mask);
      union.orInPlace(masked);
      masked.dispose();
    }
    return union;
  }
  let largest = 0;
  for (let i = 1; i < list.length; i++) if (list[i].size > list[largest].size) largest = i;
  const union = list[largest].clone();
  for (let i = 0; i < list.length; i++) if (i !== largest) union.orInPlace(list[i]);
  return union;
}

type Params = Planning & { cache: CacheLease };

/** The range's visitors: its whole days' stored sets, day by day, and the events of its edges. */
export async function gatherDayBlobs(params: Params): Promise<{ days: DayBlobs[]; edges: EdgeEvent[] }> {
  const { sql, projectId } = params;
  const { segments, edges } = await rangeSegments(params, DAY_BLOBS(sql));
  const raw: EdgeEvent[] = [];
  // one by one: spread into push, an edge's events overflow the stack past about 150,000 of them (a rebuild, or a
  // fold far behind, reads a whole range raw)
  for (const edge of edges) for (const event of await rawEvents(sql, { projectId, range: edge })) raw.push(event);
  return { days: segments, edges: raw };
}

/** One page's pairs of the range's day sets, cut from each day's as read (no other page's indexed), and the edges. */
export function pageSetSegments(
  params: Params & { pageId: number },
): Promise<{ segments: StoredDaySets[]; edges: TimeRange[] }> {
  return rangeSegments(params, PAGE_SETS(params.sql, params.pageId));
}
