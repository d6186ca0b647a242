import type { Analytics } from './analytics.js';
import { aiKindOf, type AiKind } from './classify-user-agent.js';
import { countVisitors, type Counts, type TimeRange } from './count-range.js';
import { KIND } from './day-sets.js';
import { DAY_MS } from './visitor-hash.js';

export const MAX_DAILY_DAYS = 400;

export interface DayCounts extends Counts {
  /** YYYY-MM-DD (UTC) */
  date: string;
}

/**
 * Site-wide unique visitors for each UTC day the range touches (a partial first or last day counts only the part
 * inside the range). Each day is the same exact count the visitors export gives for that day alone.
 */
export async function dailyVisitors(params: { analytics: Analytics; projectId: string; range: TimeRange }): Promise<DayCounts[]> {
  const { analytics, projectId, range } = params;
  await analytics.fold();
  const days: DayCounts[] = [];
  for (let start = Math.floor(range.from / DAY_MS) * DAY_MS; start < range.to; start += DAY_MS) {
    const day = { from: Math.max(start, range.from), to: Math.min(start + DAY_MS, range.to) };
    const { totals } = await countVisitors({ store: analytics.store, cache: analytics.cache, projectId, range: day });
    days.push({ date: new Date(start).toISOString().slice(0, 10), ...totals });
  }
  return days;
}

export interface AgentCounts {
  agent: string;
  kind: AiKind | 'unknown';
  /** distinct AI visitors (client address + agent) */
  visitors: number;
  views: number;
}

/** AI traffic by agent over the range, most visitors first (from the raw page views, which keep the agent name). */
export async function aiAgents(params: { analytics: Analytics; projectId: string; range: TimeRange }): Promise<AgentCounts[]> {
  const { analytics, projectId, range } = params;
  const rows = await analytics.store.sql.query<{ agent: string | null; visitors: number | string; views: number | string }>(
    `SELECT "agent" AS agent, COUNT(DISTINCT "visitorId") AS visitors, COUNT(*) AS views
       FROM "AnalyticsEvent"
      WHERE "projectId" = ? AND "ts" >= ? AND "ts" < ? AND "kind" = ${KIND.ai}
      GROUP BY "agent"`,
    [projectId, range.from, range.to],
  );
  return rows
    .map((r) => ({ agent: r.agent ?? 'unknown', kind: aiKindOf(r.agent ?? '') ?? ('unknown' as const), visitors: Number(r.visitors), views: Number(r.views) }))
    .sort((a, b) => b.visitors - a.visitors || b.views - a.views || (a.agent < b.agent ? -1 : 1));
}
