import { daysTouched, type TimeRange } from '../../calendar.js';
import type { Sql } from '../store/sql.js';
import { planRange, planWithin, type RangePlan } from '../store/split-range.js';
import { dayGenerations } from '../store/read-days.js';
import type { Cached, DayCache } from '../store/day-cache.js';

/** What a report reads per day. */
export interface DayFamily<T extends Cached> {
  /** names its entries in the cache */
  name: string;
  /** the days' data, by day (in one read: a first call's days stream from the database together) */
  loadDays(projectId: string, days: number[]): Promise<Map<number, T>>;
  /** a day with data that read none (rows gone since) */
  empty(): T;
}

/**
 * A range as a report reads it (see store/split-range.ts planRange): the family's data of each derived whole day
 * with data — kept in the cache under the day's generation, so a past day is read once, and again only when it
 * changes — and the ranges read from raw rows (`edges`: the caller reads them): partial-day edges, days with events
 * not folded yet, or the whole range while a rebuild re-derives the project. A range of centuries costs what its days
 * with data cost. The days not cached are read together; a reader asking for them meanwhile waits for that read.
 */
export async function rangeDays<T extends Cached>(
  params: Planning & { cache: DayCache },
  family: DayFamily<T>,
): Promise<{ days: T[]; edges: TimeRange[] }> {
  const { cache, projectId } = params;
  const plan = await planOf(params);
  const days: T[] = [];
  if (!plan.days.length) return { days, edges: plan.raw };
  const generations = await generationsOf(params, plan.days[0][0], plan.days[plan.days.length - 1][1]);
  const derived = [...generations.keys()].filter((day) => plan.days.some(([from, to]) => day >= from && day < to));
  const entry = (day: number) => ({ key: `${projectId}:${family.name}:${day}`, version: String(generations.get(day)) });
  const missing = new Set(derived.filter((day) => !cache.get(entry(day).key, entry(day).version)));
  let read: Promise<Map<number, T>> | undefined;
  const load = async (day: number) => {
    // a day dropped from the cache since is read alone
    const loaded = missing.has(day)
      ? (read ??= family.loadDays(projectId, [...missing]))
      : family.loadDays(projectId, [day]);
    return (await loaded).get(day) ?? family.empty();
  };
  for (const day of derived.sort((a, b) => a - b)) {
    const { key, version } = entry(day);
    days.push(await cache.keep(key, version, () => load(day)));
  }
  return { days, edges: plan.raw };
}

/**
 * An answer over a range read from whole days alone (an export's counts, the same for every page of its rows),
 * cached like a day under the generations of the days with data in it; computed anew, and not kept, when part of
 * the range is read raw (edges, events not folded yet, a rebuild). `compute` is handed the range's plan.
 */
export async function rangeAnswer<T extends Cached>(
  params: Planning & {
    cache: DayCache;
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
