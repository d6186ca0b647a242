import type { TimeRange } from '../../calendar.js';
import type { AnalyticsStore } from '../store/event-store.js';
import { compareCodePoints } from './compare-code-points.js';
import { weightedPage } from './weighted-page.js';

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
  store: Pick<AnalyticsStore, 'aiMissCounts'>;
  projectId: string;
  range: TimeRange;
  page: { limit: number; offset: number };
}): Promise<{ rows: AiMissRow[]; hasMore: boolean }> {
  const counts = await params.store.aiMissCounts(params.projectId, params.range);
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
