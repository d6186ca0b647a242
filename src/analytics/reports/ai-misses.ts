import type { TimeRange } from '../../calendar.js';
import type { Sql } from '../store/sql.js';
import { aiMissCounts, type MissCount } from '../store/ai-misses.js';
import { signalsVersion } from '../store/signals-version.js';
import { compareCodePoints } from './compare-code-points.js';
import { weightedPage } from './weighted-page.js';
import type { DayCache } from '../store/day-cache.js';

export type AiMissRow = MissCount;

/**
 * One page of the AI requests answered 404/410/5xx in the range by path, agent and status; most first, then path,
 * agent, status (code-point order).
 */
export async function aiMisses(params: {
  sql: Sql;
  cache: DayCache;
  projectId: string;
  range: TimeRange;
  page: { limit: number; offset: number };
}): Promise<{ rows: AiMissRow[]; hasMore: boolean }> {
  const { rows } = await missCounts(params);
  return weightedPage(
    rows,
    (m) => m.count,
    (a, b) => compareCodePoints(a.path, b.path) || compareCodePoints(a.agent, b.agent) || a.status - b.status,
    params.page,
  );
}

/**
 * The range's misses by path, agent and status, kept in the cache under the project's signals stamp (every write of
 * misses changes it), so the other pages of the rows, and the range asked again, are not counted again.
 */
async function missCounts(params: {
  sql: Sql;
  cache: DayCache;
  projectId: string;
  range: TimeRange;
}): Promise<{ rows: MissCount[]; bytes: number }> {
  const { sql, cache, projectId, range } = params;
  const stamp = await signalsVersion(sql, projectId);
  return cache.keep(`${projectId}:ai misses:${range.from}:${range.to}`, stamp, async () => {
    const rows = await aiMissCounts(sql, { projectId, range });
    return { rows, bytes: 64 + rows.reduce((n, m) => n + 64 + 2 * (m.path.length + m.agent.length), 0) };
  });
}
