import type { TimeRange } from '../../calendar.js';
import { operatorOf } from '../ingest/classify-user-agent.js';
import type { AnalyticsStore } from '../store/event-store.js';
import { compareCodePoints } from './compare-code-points.js';

export interface AgentPage {
  /** the agent's name, or with `by: 'operator'` the operator's */
  agent: string;
  path: string;
  views: number;
  visitors: number;
}

/**
 * Which pages each AI agent (or each operator, summing its agents) reads, with views and distinct visitors; most
 * views first, then agent and path ascending. Every row is returned; callers page through them.
 */
export async function agentPages(params: {
  store: Pick<AnalyticsStore, 'agentPageRows' | 'paths'>;
  projectId: string;
  range: TimeRange;
  by: 'agent' | 'operator';
}): Promise<AgentPage[]> {
  const { store, projectId, range, by } = params;
  const rows = await store.agentPageRows(projectId, range);
  const paths = await store.paths(projectId, new Set(rows.map((r) => Number(r.pageId))).values());
  const merged = new Map<string, AgentPage>();
  for (const r of rows) {
    const name = r.agent ?? 'unknown';
    const agent = by === 'operator' ? operatorOf(name) : name;
    const path = paths.get(Number(r.pageId)) ?? `#${r.pageId}`;
    const key = `${agent}\0${path}`;
    const row = merged.get(key) ?? { agent, path, views: 0, visitors: 0 };
    row.views += Number(r.views);
    // an operator's agents are distinct visitors (an AI visitor is one address with one agent)
    row.visitors += Number(r.visitors);
    merged.set(key, row);
  }
  return [...merged.values()].sort(
    (a, b) => b.views - a.views || compareCodePoints(a.agent, b.agent) || compareCodePoints(a.path, b.path),
  );
}
