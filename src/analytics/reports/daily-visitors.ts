import { DAY_MS, type TimeRange } from '../../calendar.js';
import type { AnalyticsStore } from '../store/event-store.js';
import type { DayCache } from '../store/day-cache.js';
import { splitRange } from '../store/split-range.js';
import { siteDaysRollup } from '../store/rollups/site-days.js';
import { countVisitors, type Counts } from './visitors.js';

export const MAX_DAILY_DAYS = 400;

export interface DayCounts extends Counts {
  /** YYYY-MM-DD (UTC) */
  date: string;
}

const NOBODY: Counts = { human: 0, ai: 0, total: 0 };

/**
 * Site-wide unique visitors for each UTC day the range touches (a partial first or last day counts only the part
 * inside the range). Each day is the same exact count the visitors export gives for that day alone: whole days are
 * read from the site rollup (a few rows per day), partial days are counted like the export counts them. While the
 * rollup is behind or the project is being rebuilt, every day is counted like the export.
 */
export async function dailyVisitors(params: {
  store: AnalyticsStore;
  cache: DayCache;
  projectId: string;
  range: TimeRange;
}): Promise<DayCounts[]> {
  const { store, cache, projectId, range } = params;
  const { days: whole } = splitRange(range);
  const rolled =
    whole && (await store.derivedReady(projectId, [siteDaysRollup.name]))
      ? { from: whole[0], to: whole[1], counts: await store.siteDays(projectId, whole[0], whole[1]) }
      : undefined;
  const days: DayCounts[] = [];
  for (let start = Math.floor(range.from / DAY_MS) * DAY_MS; start < range.to; start += DAY_MS) {
    const date = new Date(start).toISOString().slice(0, 10);
    const day = start / DAY_MS;
    if (rolled && day >= rolled.from && day < rolled.to) {
      days.push({ date, ...(rolled.counts.get(day) ?? NOBODY) });
      continue;
    }
    const part = { from: Math.max(start, range.from), to: Math.min(start + DAY_MS, range.to) };
    const { totals } = await countVisitors({ store, cache, projectId, range: part });
    days.push({ date, ...totals });
  }
  return days;
}
