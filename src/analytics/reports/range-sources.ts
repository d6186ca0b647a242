import type { TimeRange } from '../../calendar.js';
import { splitRange } from '../store/split-range.js';
import { KIND, type Bitmap } from '../store/day-sets.js';
import type { AnalyticsStore } from '../store/event-store.js';
import { decodeDaySets, encodeDaySets, type StoredDaySets, type StoredDayViews } from '../store/read-days.js';
import { settledSegment } from '../store/segments.js';
import type { DayCache } from '../store/day-cache.js';

/**
 * What the page-view reports read: the day sets (visitors) or day views of the range's whole days — the sets as
 * cached unions of aligned segments of days — and the raw events of its partial-day edges.
 */

export { splitRange };

type EdgeEvent = { pageId: number; visitorId: number; kind: number };

export interface Sources {
  /** day sets, or unions of several days' sets, covering the whole days of the range */
  segments: StoredDaySets[];
  edges: EdgeEvent[];
}

interface Context {
  store: AnalyticsStore;
  cache: DayCache;
  projectId: string;
  generations: Map<number, number>;
}

/** Union sizes, in days: a range is covered greedily by aligned 16-day, 4-day and 1-day segments. */
const SEGMENT_DAYS = [16, 4, 1];

export function segmentsOf(firstDay: number, endDay: number): [number, number][] {
  const out: [number, number][] = [];
  for (let day = firstDay; day < endDay; ) {
    const size = SEGMENT_DAYS.find((s) => day % s === 0 && day + s <= endDay)!;
    out.push([day, size]);
    day += size;
  }
  return out;
}

async function daySets(ctx: Context, day: number): Promise<StoredDaySets | undefined> {
  const generation = ctx.generations.get(day);
  if (generation === undefined) return undefined;
  const key = `${ctx.projectId}:1:${day}`;
  let data = ctx.cache.get<StoredDaySets>(key, String(generation));
  if (!data) {
    data = await ctx.store.loadDaySets(ctx.projectId, day);
    ctx.cache.set(key, String(generation), data);
  }
  return data;
}

async function dayViews(ctx: Context, day: number): Promise<StoredDayViews | undefined> {
  const generation = ctx.generations.get(day);
  if (generation === undefined) return undefined;
  const key = `${ctx.projectId}:views:${day}`;
  let data = ctx.cache.get<StoredDayViews>(key, String(generation));
  if (!data) {
    data = await ctx.store.loadDayViews(ctx.projectId, day);
    ctx.cache.set(key, String(generation), data);
  }
  return data;
}

/**
 * The union of `size` days' sets from `start`, built from its four quarter segments and cached under the
 * generations of its days, so a union over past days is built once and rebuilt only when one of them changes: in
 * memory, and for days past the late events (see segments.ts) in the database too, for the next process.
 */
async function segmentSets(ctx: Context, start: number, size: number): Promise<StoredDaySets | undefined> {
  if (size === 1) return daySets(ctx, start);
  const generations = Array.from({ length: size }, (_, i) => ctx.generations.get(start + i) ?? 0);
  if (generations.every((g) => g === 0)) return undefined;
  const key = `${ctx.projectId}:${size}:${start}`;
  const version = generations.join(',');
  const cached = ctx.cache.get<StoredDaySets>(key, version);
  if (cached) return cached;
  const name = `sets:${size}:${start}`;
  const stored = await ctx.store.segment(ctx.projectId, name, version);
  if (stored) {
    const data = decodeDaySets(stored);
    ctx.cache.set(key, version, data);
    return data;
  }
  const quarter = size / 4;
  const children: StoredDaySets[] = [];
  for (let i = 0; i < 4; i++) {
    const child = await segmentSets(ctx, start + i * quarter, quarter);
    if (child) children.push(child);
  }
  const sets = new Map<number, Map<number, Bitmap>>();
  let bytes = 0;
  for (const kind of [KIND.human, KIND.ai]) {
    const byPart = new Map<number, Bitmap[]>();
    for (const child of children) {
      for (const [part, bitmap] of child.sets.get(kind) ?? []) {
        const list = byPart.get(part);
        if (list) list.push(bitmap);
        else byPart.set(part, [bitmap]);
      }
    }
    const unions = new Map<number, Bitmap>();
    for (const [part, list] of byPart) {
      const union = unionOf(list);
      bytes += union.getSerializationSizeInBytes(true);
      unions.set(part, union);
    }
    sets.set(kind, unions);
  }
  const data: StoredDaySets = { sets, bytes };
  ctx.cache.set(key, version, data);
  if (settledSegment(start + size)) await ctx.store.saveSegment(ctx.projectId, name, version, encodeDaySets(data));
  return data;
}

/**
 * A new bitmap holding the union. Accumulating in place beats orMany on many small containers; starting from a
 * copy of the largest input means the others are merged into it rather than it into them.
 */
export function unionOf(list: Bitmap[]): Bitmap {
  let largest = 0;
  for (let i = 1; i < list.length; i++) if (list[i].size > list[largest].size) largest = i;
  const union = list[largest].clone();
  for (let i = 0; i < list.length; i++) if (i !== largest) union.orInPlace(list[i]);
  return union;
}

async function edgeEvents(store: AnalyticsStore, projectId: string, edges: TimeRange[]) {
  const raw = [];
  for (const edge of edges) raw.push(...(await store.rawEvents(projectId, edge)));
  return raw;
}

type Params = { store: AnalyticsStore; cache: DayCache; projectId: string; range: TimeRange };

/**
 * The whole days of the range with their generations (null while a rebuild re-derives the project's day sets: the
 * whole range is then read from raw events) and the raw events of the rest.
 */
async function split(
  params: Params,
): Promise<{ ctx: Context | null; days: [number, number] | null; edges: EdgeEvent[] }> {
  const { store, projectId, range } = params;
  const ready = await store.derivedReady(projectId);
  const { days, edges } = ready ? splitRange(range) : { days: null, edges: [range] };
  const ctx = days ? { ...params, generations: await store.dayGenerations(projectId, days[0], days[1]) } : null;
  return { ctx, days, edges: await edgeEvents(store, projectId, edges) };
}

/** The range's visitors: day sets (as unions of aligned segments of days) and edge events. */
export async function gatherSets(params: Params): Promise<Sources> {
  const { ctx, days, edges } = await split(params);
  const segments: StoredDaySets[] = [];
  if (ctx && days) {
    for (const [start, size] of segmentsOf(days[0], days[1])) {
      const data = await segmentSets(ctx, start, size);
      if (data) segments.push(data);
    }
  }
  return { segments, edges };
}

/** The range's views: each whole day's views and edge events. */
export async function gatherViews(params: Params): Promise<{ days: StoredDayViews[]; edges: EdgeEvent[] }> {
  const { ctx, edges } = await split(params);
  const days: StoredDayViews[] = [];
  for (const day of ctx?.generations.keys() ?? []) {
    const data = await dayViews(ctx!, day);
    if (data) days.push(data);
  }
  return { days, edges };
}
