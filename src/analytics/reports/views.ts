import { KIND } from '../store/day-sets.js';
import type { DayCache } from '../store/day-cache.js';
import { daysViews } from '../store/read-days.js';
import { rawEvents } from '../store/read-events.js';
import { type Planning, rangeAnswer } from './range-days.js';
import { type Counts, keptCounts, type RangeCounts } from './visitors.js';

/**
 * Page views per page and site-wide over a range: the whole days' sums from the database (one `GROUP BY` per run of
 * days), the raw views of the rest; kept as `rangeAnswer` keeps an answer.
 */
export async function countViews(params: Planning & { cache: DayCache }): Promise<RangeCounts> {
  const { sql, projectId } = params;
  return rangeAnswer({ ...params, name: 'views by page' }, async (plan) => {
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
    for (const [fromDay, toDay] of plan.days)
      for (const row of await daysViews(sql, { projectId, fromDay, toDay })) add(row.pageId, row.kind, row.views);
    for (const range of plan.raw) for (const e of await rawEvents(sql, { projectId, range })) add(e.pageId, e.kind, 1);
    return keptCounts({ totals, pages });
  });
}
