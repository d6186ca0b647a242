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
  days: StoredDay[];
  edges: { pageId: number; visitorId: number; kind: number }[];
}

async function gather(params: { store: AnalyticsStore; cache: DayCache; projectId: string; range: TimeRange }): Promise<Sources> {
  const { store, cache, projectId, range } = params;
  const { days, edges } = splitRange(range);
  const loaded: StoredDay[] = [];
  if (days) {
    for (const [day, generation] of await store.dayGenerations(projectId, days[0], days[1])) {
      let data = cache.get(projectId, day, generation);
      if (!data) {
        data = await store.loadDay(projectId, day);
        cache.set(projectId, day, generation, data);
      }
      loaded.push(data);
    }
  }
  const raw = [];
  for (const edge of edges) raw.push(...(await store.rawEvents(projectId, edge.from, edge.to)));
  return { days: loaded, edges: raw };
}

/**
 * Exact distinct visitors per page and site-wide over a range: per part, the union of every day's bitmap (and of
 * the edges' pairs) is taken per class and across classes; each page's count is its container's cardinality.
 */
export async function countVisitors(params: { store: AnalyticsStore; cache: DayCache; projectId: string; range: TimeRange }): Promise<RangeCounts> {
  const sources = await gather(params);
  const byKind = new Map<number, Map<number, Bitmap[]>>([
    [KIND.human, new Map()],
    [KIND.ai, new Map()],
  ]);
  const push = (kind: number, part: number, bitmap: Bitmap) => {
    const parts = byKind.get(kind)!;
    const list = parts.get(part);
    if (list) list.push(bitmap);
    else parts.set(part, [bitmap]);
  };
  for (const day of sources.days) for (const [kind, parts] of day.sets) for (const [part, bitmap] of parts) push(kind, part, bitmap);
  const edgeKeys = new Map<number, Map<number, number[]>>([
    [KIND.human, new Map()],
    [KIND.ai, new Map()],
  ]);
  for (const e of sources.edges) addPair(edgeKeys.get(e.kind)!, e.pageId, e.visitorId);
  for (const [kind, parts] of edgeKeys) for (const [part, keys] of parts) push(kind, part, new RoaringBitmap32(keys));

  const human = new Map<number, number>();
  const ai = new Map<number, number>();
  const total = new Map<number, number>();
  const allParts = new Set([...byKind.get(KIND.human)!.keys(), ...byKind.get(KIND.ai)!.keys()]);
  const union = (list: Bitmap[] | undefined) => (!list ? new RoaringBitmap32() : list.length === 1 ? list[0] : RoaringBitmap32.orMany(list));
  for (const part of allParts) {
    const h = union(byKind.get(KIND.human)!.get(part));
    const a = union(byKind.get(KIND.ai)!.get(part));
    addPageCardinalities(part, h, human);
    addPageCardinalities(part, a, ai);
    addPageCardinalities(part, RoaringBitmap32.or(h, a), total);
  }
  const counts = (page: number): Counts => ({ human: human.get(page) ?? 0, ai: ai.get(page) ?? 0, total: total.get(page) ?? 0 });
  const pages = new Map<number, Counts>();
  for (const page of total.keys()) if (page !== SITE_PAGE) pages.set(page, counts(page));
  return { totals: counts(SITE_PAGE), pages };
}

/** Page views per page and site-wide over a range. */
export async function countViews(params: { store: AnalyticsStore; cache: DayCache; projectId: string; range: TimeRange }): Promise<RangeCounts> {
  const sources = await gather(params);
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
  for (const day of sources.days) {
    for (const [key, n] of day.views) {
      const [page, kind] = key.split(':');
      add(Number(page), Number(kind), n);
    }
  }
  for (const e of sources.edges) add(e.pageId, e.kind, 1);
  return { totals, pages };
}
