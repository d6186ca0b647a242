import type { TimeRange } from '../../calendar.js';
import type { AnalyticsStore } from '../store/event-store.js';
import { compareCodePoints } from './compare-code-points.js';

export interface AiMissRow {
  path: string;
  agent: string;
  status: number;
  count: number;
}

/** AI requests answered 404/410/5xx in the range by path, agent and status; most first, then path, agent, status. */
export async function aiMisses(params: {
  store: Pick<AnalyticsStore, 'aiMissCounts'>;
  projectId: string;
  range: TimeRange;
}): Promise<AiMissRow[]> {
  const rows = await params.store.aiMissCounts(params.projectId, params.range);
  return rows.sort(
    (a, b) =>
      b.count - a.count ||
      compareCodePoints(a.path, b.path) ||
      compareCodePoints(a.agent, b.agent) ||
      a.status - b.status,
  );
}
