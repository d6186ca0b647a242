import type { TimeRange } from '../../calendar.js';
import type { AnalyticsStore } from '../store/event-store.js';
import { type Cached, type CacheLease, segmentKey } from '../store/day-cache.js';

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

/**
 * The segments covering the whole days [firstDay, endDay) that have data (`generations`): the range is first cut to
 * its first and last day with data, so a range of centuries costs what its data costs, not a segment per 16 days.
 * Segments stay aligned, so they are the same cached unions whatever range asks for them.
 */
export function segmentsWithData(days: [number, number], generations: Map<number, number>): [number, number][] {
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const day of generations.keys()) {
    if (day < first) first = day;
    if (day > last) last = day;
  }
  if (first > last) return [];
  return segmentsOf(Math.max(days[0], first), Math.min(days[1], last + 1));
}

/** What a report reads per day, and how several days of it become one segment. */
export interface SegmentFamily<T extends Cached> {
  /** names its entries in the cache */
  name: string;
  loadDay(projectId: string, day: number): Promise<T>;
  /** one segment from its (non-empty) quarters; shares or copies, never changes them (they stay cached) */
  unite(quarters: T[]): T;
}

export interface SegmentContext {
  cache: CacheLease;
  projectId: string;
  /** generation of each day with data in the range */
  generations: Map<number, number>;
}

/**
 * The family's data for `size` days from `start` (undefined when none of them has data): a day as loaded, a longer
 * segment united from its four quarter segments. Each is cached under the generations of its days, so a segment over
 * past days is built once and rebuilt only when one of them changes.
 */
export async function segmentOf<T extends Cached>(
  ctx: SegmentContext,
  family: SegmentFamily<T>,
  start: number,
  size: number,
): Promise<T | undefined> {
  const generations = Array.from({ length: size }, (_, i) => ctx.generations.get(start + i) ?? 0);
  if (generations.every((g) => g === 0)) return undefined;
  const key = segmentKey(ctx.projectId, family.name, size, start);
  const version = generations.join(',');
  const cached = ctx.cache.get<T>(key, version);
  if (cached) return cached;
  if (size === 1) {
    const day = await family.loadDay(ctx.projectId, start);
    ctx.cache.set(key, version, day);
    return day;
  }
  const quarter = size / 4;
  const quarters: T[] = [];
  for (let i = 0; i < 4; i++) {
    const child = await segmentOf(ctx, family, start + i * quarter, quarter);
    if (child) quarters.push(child);
  }
  const data = family.unite(quarters);
  ctx.cache.set(key, version, data);
  return data;
}

/**
 * A range as a report reads it (see store/split-range.ts planRange): the family's segments over its derived whole
 * days, and the ranges read from raw rows (`edges`: the caller reads them) — partial-day edges, days with events
 * not folded yet, or the whole range while a rebuild re-derives the project.
 */
export async function rangeSegments<T extends Cached>(
  params: {
    store: Pick<AnalyticsStore, 'planRange' | 'dayGenerations'>;
    cache: CacheLease;
    projectId: string;
    range: TimeRange;
  },
  family: SegmentFamily<T>,
): Promise<{ segments: T[]; edges: TimeRange[] }> {
  const { store, projectId, range } = params;
  const plan = await store.planRange(projectId, range);
  const segments: T[] = [];
  if (plan.days.length) {
    const [first, end] = [plan.days[0][0], plan.days[plan.days.length - 1][1]];
    const ctx = { ...params, generations: await store.dayGenerations(projectId, first, end) };
    for (const run of plan.days) {
      for (const [start, size] of segmentsWithData(run, ctx.generations)) {
        const segment = await segmentOf(ctx, family, start, size);
        if (segment) segments.push(segment);
      }
    }
  }
  return { segments, edges: plan.raw };
}
