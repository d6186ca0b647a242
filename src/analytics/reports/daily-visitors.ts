import { DAY_MS, type TimeRange } from '../../calendar.js';
import type { AnalyticsStore } from '../store/event-store.js';
import type { DayCache } from '../store/day-cache.js';
import { countVisitors, type Counts } from './visitors.js';

export const MAX_DAILY_DAYS = 400;

export interface DayCounts extends Counts {
  /** YYYY-MM-DD (UTC) */
  date: string;
}

/**
 * Site-wide unique visitors for each UTC day the range touches (a partial first or last day counts only the part
 * inside the range). Each day is the same exact count the visitors export gives for that day alone.
 */
export async function dailyVisitors(params: {
  store: AnalyticsStore;
  cache: DayCache;
  projectId: string;
  range: TimeRange;
}): Promise<DayCounts[]> {
  const { store, cache, projectId, range } = params;
  const days: DayCounts[] = [];
  for (let start = Math.floor(range.from / DAY_MS) * DAY_MS; start < range.to; start += DAY_MS) {
    const day = { from: Math.max(start, range.from), to: Math.min(start + DAY_MS, range.to) };
    const { totals } = await countVisitors({ store, cache, projectId, range: day });
    days.push({ date: new Date(start).toISOString().slice(0, 10), ...totals });
  }
  return days;
}
