import type { TimeRange } from '../../calendar.js';
import { KIND } from '../store/day-sets.js';
import type { AnalyticsStore } from '../store/event-store.js';
import type { CacheLease } from '../store/day-cache.js';
import { viewKeyParts } from '../store/read-days.js';
import { gatherViews } from './range-sources.js';
import type { Counts, RangeCounts } from './visitors.js';

/** Page views per page and site-wide over a range. */
export async function countViews(params: {
  store: AnalyticsStore;
  cache: CacheLease;
  projectId: string;
  range: TimeRange;
}): Promise<RangeCounts> {
  const sources = await gatherViews(params);
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
  for (const segment of sources.segments) {
    for (const [key, n] of segment.views) {
      const { pageId, kind } = viewKeyParts(key);
      add(pageId, kind, n);
    }
  }
  for (const e of sources.edges) add(e.pageId, e.kind, 1);
  return { totals, pages };
}
