import type { AnalyticsStore } from './store.js';
import type { DayCache } from './day-cache.js';
import { aiKindOf, type AiKind } from './classify-user-agent.js';
import { countVisitors, type Counts, type TimeRange } from './count-range.js';
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
export async function dailyVisitors(params: { store: AnalyticsStore; cache: DayCache; projectId: string; range: TimeRange }): Promise<DayCounts[]> {
  const { store, cache, projectId, range } = params;
  const days: DayCounts[] = [];
  for (let start = Math.floor(range.from / DAY_MS) * DAY_MS; start < range.to; start += DAY_MS) {
    const day = { from: Math.max(start, range.from), to: Math.min(start + DAY_MS, range.to) };
    const { totals } = await countVisitors({ store, cache, projectId, range: day });
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
export async function aiAgents(params: { store: AnalyticsStore; projectId: string; range: TimeRange }): Promise<AgentCounts[]> {
  const rows = await params.store.agentCounts(params.projectId, params.range.from, params.range.to);
  return rows
    .map((r) => ({ agent: r.agent ?? 'unknown', kind: aiKindOf(r.agent ?? '') ?? ('unknown' as const), visitors: r.visitors, views: r.views }))
    .sort((a, b) => b.visitors - a.visitors || b.views - a.views || (a.agent < b.agent ? -1 : 1));
}
