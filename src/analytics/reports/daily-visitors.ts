import { DAY_MS, type TimeRange } from '../../calendar.js';
import type { Sql } from '../store/sql.js';
import type { DayCache } from '../store/day-cache.js';
import { planRange } from '../store/split-range.js';
import { readSiteDays } from '../store/rollups/site-days.js';
import { countVisitors, type Counts } from './visitors.js';

export const MAX_DAILY_DAYS = 400;

export interface DayCounts extends Counts {
  /** YYYY-MM-DD (UTC) */
  date: string;
}

const NOBODY: Counts = { human: 0, ai: 0, total: 0 };

/**
 * Site-wide unique visitors for each UTC day the range touches (a partial first or last day counts only the part
 * inside the range). Each day is the same exact count the visitors export gives for that day alone: the whole days
 * the range's plan derives are read from the site rollup (a few rows per day), every other day is counted like the
 * export counts it.
 */
export async function dailyVisitors(params: {
  sql: Sql;
  cache: DayCache;
  projectId: string;
  range: TimeRange;
}): Promise<DayCounts[]> {
  const { sql, cache, projectId, range } = params;
  const { days: runs } = await planRange(sql, { projectId, range });
  const rolled = new Map<number, Counts>();
  for (const [fromDay, toDay] of runs) {
    const counts = await readSiteDays(sql, { projectId, fromDay, toDay });
    for (let day = fromDay; day < toDay; day++) rolled.set(day, counts.get(day) ?? NOBODY);
  }
  const days: DayCounts[] = [];
  for (let start = Math.floor(range.from / DAY_MS) * DAY_MS; start < range.to; start += DAY_MS) {
    const date = new Date(start).toISOString().slice(0, 10);
    const counts = rolled.get(start / DAY_MS);
    if (counts) {
      days.push({ date, ...counts });
      continue;
    }
    const part = { from: Math.max(start, range.from), to: Math.min(start + DAY_MS, range.to) };
    const { totals } = await countVisitors({ sql, cache, projectId, range: part, pages: [] });
    days.push({ date, ...totals });
  }
  return days;
}
