import { daysTouched, type TimeRange } from '../../calendar.js';
import type { Sql } from '../store/sql.js';
import { planRange, planWithin, type RangePlan } from '../store/split-range.js';
import { dayGenerations } from '../store/read-days.js';
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
  /**
   * One segment from its (non-empty) pieces (days or cached unions of days); shares or copies, never changes them.
   * Absent: the family is read day by day.
   */
  unite?(pieces: T[]): T;
}

export interface SegmentContext {
  cache: CacheLease;
  projectId: string;
  /** generation of each day with data in the range */
  generations: Map<number, number>;
}

/**
 * The family's data for `size` days from `start` (undefined when none of them has data): a day as loaded, a longer
 * segment united from its pieces (see piecesOf). Each is cached under the generations of its days, so a segment over
 * past days is built once and rebuilt only when one of them changes.
 */
export async function segmentOf<T extends Cached>(
  ctx: SegmentContext,
  family: SegmentFamily<T>,
  start: number,
  size: number,
): Promise<T | undefined> {
  const { key, version, empty } = cacheEntry(ctx, family, start, size);
  if (empty) return undefined;
  // not cached (keep answers it when it is), so a longer segment's pieces are its quarters'
  return ctx.cache.keep(key, version, async () => {
    if (size === 1) return family.loadDay(ctx.projectId, start);
    if (!family.unite) throw new Error(`${family.name} is read day by day`);
    return family.unite(await piecesOf(ctx, family, start, size));
  });
}

/**
 * What a segment is united from: the segment itself when it is cached, else its days (or its quarters' cached
 * unions, at any depth). Not the quarters built first: uniting sixteen days at once costs about half what uniting
 * them four by four and then the four unions does (a day holds thousands of small containers per part, and each level
 * merges them all again).
 */
async function piecesOf<T extends Cached>(
  ctx: SegmentContext,
  family: SegmentFamily<T>,
  start: number,
  size: number,
): Promise<T[]> {
  const { key, version, empty } = cacheEntry(ctx, family, start, size);
  if (empty) return [];
  const cached = size === 1 ? await segmentOf(ctx, family, start, 1) : ctx.cache.get<T>(key, version);
  if (cached) return [cached];
  const pieces: T[] = [];
  for (let i = 0; i < 4; i++) pieces.push(...(await piecesOf(ctx, family, start + (i * size) / 4, size / 4)));
  return pieces;
}

function cacheEntry(ctx: SegmentContext, family: SegmentFamily<Cached>, start: number, size: number) {
  const generations = Array.from({ length: size }, (_, i) => ctx.generations.get(start + i) ?? 0);
  return {
    key: segmentKey(ctx.projectId, family.name, size, start),
    version: generations.join(','),
    empty: generations.every((g) => g === 0),
  };
}

/**
 * A range as a report reads it (see store/split-range.ts planRange): the family's segments over its derived whole
 * days, and the ranges read from raw rows (`edges`: the caller reads them) — partial-day edges, days with events
 * not folded yet, or the whole range while a rebuild re-derives the project.
 */
export async function rangeSegments<T extends Cached>(
  params: Planning & {
    cache: CacheLease;
    /**
     * false: no union is built for the answer; the segments already cached are read, and the days of the others. For
     * a report that reads a few pages' containers (or the site's) of each: cutting them from the days costs less than
     * uniting every page's to cache.
     */
    unite?: boolean;
  },
  family: SegmentFamily<T>,
): Promise<{ segments: T[]; edges: TimeRange[] }> {
  const plan = await planOf(params);
  const segments: T[] = [];
  if (plan.days.length) {
    const [first, end] = [plan.days[0][0], plan.days[plan.days.length - 1][1]];
    const ctx = { ...params, generations: await generationsOf(params, first, end) };
    for (const run of plan.days) {
      for (const [start, size] of segmentsWithData(run, ctx.generations)) {
        if (params.unite === false || !family.unite) segments.push(...(await piecesOf(ctx, family, start, size)));
        else {
          const segment = await segmentOf(ctx, family, start, size);
          if (segment) segments.push(segment);
        }
      }
    }
  }
  return { segments, edges: plan.raw };
}

/**
 * An answer over a range read from whole days alone (an export's counts, the same for every page of its rows),
 * cached like a segment under the generations of the days with data in it; computed anew, and not kept, when part of
 * the range is read raw (edges, events not folded yet, a rebuild). `compute` is handed the range's plan.
 */
export async function rangeAnswer<T extends Cached>(
  params: Planning & {
    cache: CacheLease;
    /** names the answer in the cache */
    name: string;
  },
  compute: (plan: RangePlan) => Promise<T>,
): Promise<T> {
  const { cache, projectId, name } = params;
  const plan = await planOf(params);
  if (plan.raw.length || !plan.days.length) return compute(plan);
  const generations = await generationsOf(params, plan.days[0][0], plan.days[plan.days.length - 1][1]);
  const inRange = (day: number) => plan.days.some(([from, to]) => day >= from && day < to);
  const key = `${projectId}:${name}:${plan.days.map(([from, to]) => `${from}-${to}`).join(',')}`;
  const version = [...generations]
    .filter(([day]) => inRange(day))
    .map(([day, generation]) => `${day}:${generation}`)
    .join(',');
  return cache.keep(key, version, () => compute(plan));
}

/** What plans a report's range: the database, in the report's snapshot, or the plan of a wider range read once. */
export interface Planning {
  sql: Sql;
  projectId: string;
  range: TimeRange;
  /** see plannedOnce */
  planned?: { projectId: string; range: TimeRange; plan: RangePlan; generations: Map<number, number> };
}

/** The range's plan (store/split-range.ts planRange): the part of `planned`'s inside it, when it is. */
function planOf({ sql, projectId, range, planned }: Planning): Promise<RangePlan> {
  return planned?.projectId === projectId && range.from >= planned.range.from && range.to <= planned.range.to
    ? Promise.resolve(planWithin(planned.plan, range))
    : planRange(sql, { projectId, range });
}

/** Generation of each day with data in [fromDay, toDay) (store/read-days.ts): `planned`'s, when it holds them. */
function generationsOf({ sql, projectId, planned }: Planning, fromDay: number, toDay: number) {
  if (planned?.projectId === projectId) {
    const [first, end] = daysTouched(planned.range);
    if (fromDay >= first && toDay <= end)
      return Promise.resolve(new Map([...planned.generations].filter(([day]) => day >= fromDay && day < toDay)));
  }
  return dayGenerations(sql, { projectId, fromDay, toDay });
}

/**
 * The params with the plan and the day generations of their range read once (`planned`), which answer any sub-range
 * (planWithin, a slice of the generations) as the database would in the same snapshot. For a reader that walks a
 * range day by day, or reads it as day sets and again as agent cells, which would otherwise ask the database for each
 * piece.
 */
export async function plannedOnce<P extends Planning>(params: P): Promise<P> {
  const [first, end] = daysTouched(params.range);
  const [plan, generations] = await Promise.all([planOf(params), generationsOf(params, first, end)]);
  return { ...params, planned: { projectId: params.projectId, range: params.range, plan, generations } };
}
