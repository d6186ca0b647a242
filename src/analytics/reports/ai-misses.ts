import type { TimeRange } from '../../calendar.js';
import type { AnalyticsStore } from '../store/event-store.js';
import { compareCodePoints } from './compare-code-points.js';
import { weightedPage } from './weighted-page.js';
import type { CacheLease } from '../store/day-cache.js';
import type { RangeCounts } from '../store/day-counts.js';

export interface AiMissRow {
  path: string;
  agent: string;
  status: number;
  count: number;
}

/**
 * One page of the AI requests answered 404/410/5xx in the range by path, agent and status; most first, then path,
 * agent, status (code-point order).
 */
export async function aiMisses(params: {
  store: Pick<AnalyticsStore, 'aiMissCounts' | 'signalsStamp'>;
  cache: CacheLease;
  projectId: string;
  range: TimeRange;
  page: { limit: number; offset: number };
}): Promise<{ rows: AiMissRow[]; hasMore: boolean }> {
  const counts = await missCounts(params);
  const [count] = counts.values;
  const { keys } = counts;
  const page = weightedPage(
    counts.present,
    (id) => count[id],
    (a, b) =>
      compareCodePoints(keys.value(a, 0) as string, keys.value(b, 0) as string) ||
      compareCodePoints(keys.value(a, 1) as string, keys.value(b, 1) as string) ||
      (keys.value(a, 2) as number) - (keys.value(b, 2) as number),
    params.page,
  );
  return {
    rows: page.rows.map((id) => {
      const [path, agent, status] = keys.key(id) as [string, string, number];
      return { path, agent, status, count: count[id] };
    }),
    hasMore: page.hasMore,
  };
}

/**
 * The range's misses by path, agent and status, kept in the cache under the project's signals stamp (every write of
 * misses changes it), so the other pages of the rows, and the range asked again, are not counted again.
 */
async function missCounts(params: {
  store: Pick<AnalyticsStore, 'aiMissCounts' | 'signalsStamp'>;
  cache: CacheLease;
  projectId: string;
  range: TimeRange;
}): Promise<RangeCounts> {
  const { store, cache, projectId, range } = params;
  const count = () => store.aiMissCounts(projectId, range);
  const stamp = await store.signalsStamp(projectId);
  // a rebuild is under way (no stamp): read raw, kept nowhere
  if (stamp === null) return count();
  return cache.keep(`${projectId}:ai misses:${range.from}:${range.to}`, stamp, count);
}
