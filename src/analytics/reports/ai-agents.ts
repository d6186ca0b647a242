import type { TimeRange } from '../../calendar.js';
import { aiKindOf, type AiKind } from '../ingest/classify-user-agent.js';
import type { AnalyticsStore } from '../store/event-store.js';

export interface AgentCounts {
  agent: string;
  kind: AiKind | 'unknown';
  /** distinct AI visitors (client address + agent) */
  visitors: number;
  views: number;
}

/** AI traffic by agent over the range, most visitors first (from the raw page views, which keep the agent name). */
export async function aiAgents(params: {
  store: Pick<AnalyticsStore, 'agentCounts'>;
  projectId: string;
  range: TimeRange;
}): Promise<AgentCounts[]> {
  const rows = await params.store.agentCounts(params.projectId, params.range);
  return rows
    .map((r) => ({
      agent: r.agent ?? 'unknown',
      kind: aiKindOf(r.agent ?? '') ?? ('unknown' as const),
      visitors: r.visitors,
      views: r.views,
    }))
    .sort((a, b) => b.visitors - a.visitors || b.views - a.views || (a.agent < b.agent ? -1 : 1));
}
