import { addPageCardinalities, addPair, KIND, RoaringBitmap32, SITE_PAGE, type Bitmap } from './day-sets.js';
import type { AnalyticsStore, StoredDay } from './store.js';
import type { DayCache } from './day-cache.js';
import { DAY_MS } from './visitor-hash.js';

export interface Counts {
  human: number;
  ai: number;
  total: number;
}

export interface RangeCounts {
  totals: Counts;
  /** page id → counts, pages with at least one counted view in the range */
  pages: Map<number, Counts>;
}

export interface TimeRange {
  /** inclusive, epoch ms */
  from: number;
  /** exclusive, epoch ms */
  to: number;
}

/** Whole days inside the range, and the partial-day edges that must be read from raw events. */
export function splitRange({ from, to }: TimeRange): { days: [number, number] | null; edges: TimeRange[] } {
  const firstDay = Math.ceil(from / DAY_MS);
  const endDay = Math.floor(to / DAY_MS);
  if (firstDay >= endDay) return { days: null, edges: [{ from, to }] };
  const edges: TimeRange[] = [];
  if (from < firstDay * DAY_MS) edges.push({ from, to: firstDay * DAY_MS });
  if (to > endDay * DAY_MS) edges.push({ from: endDay * DAY_MS, to });
  return { days: [firstDay, endDay], edges };
}

interface Sources {
  /** day sets, or unions of several days' sets, covering the whole days of the range */
  segments: StoredDay[];
  edges: { pageId: number; visitorId: number; kind: number }[];
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

async function daySets(ctx: Context, day: number): Promise<StoredDay | undefined> {
  const generation = ctx.generations.get(day);
  if (generation === undefined) return undefined;
  const key = `${ctx.projectId}:1:${day}`;
  let data = ctx.cache.get(key, String(generation));
  if (!data) {
    data = await ctx.store.loadDay(ctx.projectId, day);
    ctx.cache.set(key, String(generation), data);
  }
  return data;
}

/**
 * The union of `size` days' sets from `start`, built from its four quarter segments and cached under the
 * generations of its days, so a union over past days is built once and rebuilt only when one of them changes.
 */
async function segmentSets(ctx: Context, start: number, size: number): Promise<StoredDay | undefined> {
  if (size === 1) return daySets(ctx, start);
  const generations = Array.from({ length: size }, (_, i) => ctx.generations.get(start + i) ?? 0);
  if (generations.every((g) => g === 0)) return undefined;
  const key = `${ctx.projectId}:${size}:${start}`;
  const version = generations.join(',');
  const cached = ctx.cache.get(key, version);
  if (cached) return cached;
  const quarter = size / 4;
  const children: StoredDay[] = [];
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
  const data: StoredDay = { sets, views: new Map(), bytes };
  ctx.cache.set(key, version, data);
  return data;
}

/**
 * A new bitmap holding the union. Accumulating in place beats orMany on many small containers; starting from a
 * copy of the largest input means the others are merged into it rather than it into them.
 */
function unionOf(list: Bitmap[]): Bitmap {
  let largest = 0;
  for (let i = 1; i < list.length; i++) if (list[i].size > list[largest].size) largest = i;
  const union = list[largest].clone();
  for (let i = 0; i < list.length; i++) if (i !== largest) union.orInPlace(list[i]);
  return union;
}

async function edgeEvents(store: AnalyticsStore, projectId: string, edges: TimeRange[]) {
  const raw = [];
  for (const edge of edges) raw.push(...(await store.rawEvents(projectId, edge.from, edge.to)));
  return raw;
}

async function gather(params: { store: AnalyticsStore; cache: DayCache; projectId: string; range: TimeRange }, segmented: boolean): Promise<Sources> {
  const { store, projectId, range } = params;
  const { days, edges } = splitRange(range);
  const segments: StoredDay[] = [];
  if (days) {
    const ctx: Context = { ...params, generations: await store.dayGenerations(projectId, days[0], days[1]) };
    const pieces: [number, number][] = segmented ? segmentsOf(days[0], days[1]) : [...ctx.generations.keys()].map((d) => [d, 1]);
    for (const [start, size] of pieces) {
      const data = await segmentSets(ctx, start, size);
      if (data) segments.push(data);
    }
  }
  return { segments, edges: await edgeEvents(store, projectId, edges) };
}

/**
 * Exact distinct visitors per page and site-wide over a range: per part, the union of the range's day sets (and of
 * the edges' pairs) is taken per class and across classes; each page's count is its container's cardinality.
 */
export async function countVisitors(params: { store: AnalyticsStore; cache: DayCache; projectId: string; range: TimeRange }): Promise<RangeCounts> {
  const { byKind, owned } = groupByPart(await gather(params, true));
  let distinct: ReturnType<typeof countDistinct>;
  try {
    distinct = countDistinct(byKind);
  } finally {
    for (const bitmap of owned) bitmap.dispose();
  }
  const { human, ai, total } = distinct;
  const counts = (page: number): Counts => ({ human: human.get(page) ?? 0, ai: ai.get(page) ?? 0, total: total.get(page) ?? 0 });
  const pages = new Map<number, Counts>();
  for (const page of total.keys()) if (page !== SITE_PAGE) pages.set(page, counts(page));
  return { totals: counts(SITE_PAGE), pages };
}

type ByKind = Map<number, Map<number, Bitmap[]>>;

/**
 * The range's day sets and its edge events (as bitmaps built here, `owned`: the caller disposes of them), grouped
 * by kind and part.
 */
function groupByPart(sources: Sources): { byKind: ByKind; owned: Bitmap[] } {
  const byKind: ByKind = new Map([
    [KIND.human, new Map()],
    [KIND.ai, new Map()],
  ]);
  const push = (kind: number, part: number, bitmap: Bitmap) => {
    const parts = byKind.get(kind)!;
    const list = parts.get(part);
    if (list) list.push(bitmap);
    else parts.set(part, [bitmap]);
  };
  for (const segment of sources.segments) for (const [kind, parts] of segment.sets) for (const [part, bitmap] of parts) push(kind, part, bitmap);
  const edgeKeys = new Map<number, Map<number, number[]>>([
    [KIND.human, new Map()],
    [KIND.ai, new Map()],
  ]);
  for (const e of sources.edges) addPair(edgeKeys.get(e.kind)!, e.pageId, e.visitorId);
  const owned: Bitmap[] = [];
  for (const [kind, parts] of edgeKeys) {
    for (const [part, keys] of parts) {
      const bitmap = new RoaringBitmap32(keys);
      owned.push(bitmap);
      push(kind, part, bitmap);
    }
  }
  return { byKind, owned };
}

/** Distinct visitors per page (and for the site, page 0) of each kind and of both together. */
function countDistinct(byKind: ByKind): { human: Map<number, number>; ai: Map<number, number>; total: Map<number, number> } {
  const human = new Map<number, number>();
  const ai = new Map<number, number>();
  const total = new Map<number, number>();
  const allParts = new Set([...byKind.get(KIND.human)!.keys(), ...byKind.get(KIND.ai)!.keys()]);
  // Unions are large and live in native memory the JS garbage collector does not see: they are freed
  // explicitly as soon as their cardinalities are read (cached sets are never freed here).
  const temporary: Bitmap[] = [];
  const union = (list: Bitmap[] | undefined) => {
    if (list?.length === 1) return list[0];
    const result = list ? unionOf(list) : new RoaringBitmap32();
    temporary.push(result);
    return result;
  };
  try {
    for (const part of allParts) {
      const h = union(byKind.get(KIND.human)!.get(part));
      const a = union(byKind.get(KIND.ai)!.get(part));
      addPageCardinalities(part, h, human);
      addPageCardinalities(part, a, ai);
      // the human union is ours to change once read: merging the (smaller) AI union into it saves a copy
      if (temporary.includes(h)) addPageCardinalities(part, h.orInPlace(a), total);
      else addPageCardinalities(part, union([h, a]), total);
      for (const bitmap of temporary.splice(0)) bitmap.dispose();
    }
  } finally {
    for (const bitmap of temporary) bitmap.dispose();
  }
  return { human, ai, total };
}

/** Page views per page and site-wide over a range. */
export async function countViews(params: { store: AnalyticsStore; cache: DayCache; projectId: string; range: TimeRange }): Promise<RangeCounts> {
  const sources = await gather(params, false);
  const pages = new Map<number, Counts>();
  const totals: Counts = { human: 0, ai: 0, total: 0 };
  const add = (page: number, kind: number, n: number) => {
    let c = pages.get(page);
    if (!c) pages.set(page, (c = { human: 0, ai: 0, total: 0 }));
    const field = kind === KIND.human ? 'human' : 'ai';
    c[field] += n;
    c.total += n;
    totals[field] += n;
    totals.total += n;
  };
  for (const day of sources.segments) {
    for (const [key, n] of day.views) {
      const [page, kind] = key.split(':');
      add(Number(page), Number(kind), n);
    }
  }
  for (const e of sources.edges) add(e.pageId, e.kind, 1);
  return { totals, pages };
}
