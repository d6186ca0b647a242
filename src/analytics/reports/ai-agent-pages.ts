import type { TimeRange } from '../../calendar.js';
import { operatorOf } from '../ingest/classify-user-agent.js';
import { KIND, SITE_PAGE, type Bitmap } from '../store/day-sets.js';
import type { AnalyticsStore } from '../store/event-store.js';
import type { DayCache } from '../store/day-cache.js';
import type { CellData } from '../store/rollups/agent-days.js';
import { agentColumn, agentName, operatorColumn } from '../store/rollups/agent-columns.js';
import { compareCodePoints } from './compare-code-points.js';
import { distinctByPage, viewsByPage, withAgentCells, type AgentReportStore } from './agent-cells.js';

export interface AgentPage {
  /** the agent's name, or with `by: 'operator'` the operator's */
  agent: string;
  path: string;
  views: number;
  visitors: number;
}

/**
 * Which pages each AI agent (or each operator) reads, with views and distinct visitors — an operator's visitors are
 * the union of its agents' (one visitor id seen with two of its agents counts once); most views first, then agent
 * and path ascending. Every row is returned; callers page through them. Visitors come from the agent's (operator's)
 * gap-count column where it can answer, else from the union of its cells.
 */
export async function agentPages(params: {
  store: AgentReportStore & Pick<AnalyticsStore, 'paths'>;
  cache: DayCache;
  projectId: string;
  range: TimeRange;
  by: 'agent' | 'operator';
}): Promise<AgentPage[]> {
  const { store, projectId, by } = params;
  const counted = await withAgentCells(params, async (cells, gapColumns) => {
    const groups = new Map<string, CellData<Bitmap[]>[]>();
    for (const data of cells) {
      if (data.cell.kind !== KIND.ai) continue;
      const name = agentName(data.cell);
      const group = by === 'operator' ? operatorOf(name) : name;
      groups.set(group, [...(groups.get(group) ?? []), data]);
    }
    const column = by === 'operator' ? operatorColumn : agentColumn;
    const counts = await gapColumns([...groups.keys()].map(column));
    return [...groups].map(([agent, group]) => ({
      agent,
      views: viewsByPage(group),
      visitors: counts?.get(column(agent)) ?? distinctByPage(group),
    }));
  });
  const pageIds = new Set(counted.flatMap((c) => [...c.views.keys()]));
  const paths = await store.paths(projectId, pageIds);
  const pathOf = (page: number) => paths.get(page) ?? `#${page}`;
  // rows sort by views, then agent and path in code-point order: each name ranked once, so the sort of agents ×
  // pages rows compares numbers
  const pageRank = rankBy([...pageIds], pathOf);
  const agentRank = rankBy(
    counted.map((c) => c.agent),
    (agent) => agent,
  );
  const rows: { row: AgentPage; agent: number; page: number }[] = [];
  for (const { agent, views, visitors } of counted) {
    for (const [page, n] of views) {
      if (page === SITE_PAGE) continue;
      const row = { agent, path: pathOf(page), views: n, visitors: visitors.get(page) ?? 0 };
      rows.push({ row, agent: agentRank.get(agent)!, page: pageRank.get(page)! });
    }
  }
  rows.sort((a, b) => b.row.views - a.row.views || a.agent - b.agent || a.page - b.page);
  return rows.map((r) => r.row);
}

/** Each item's rank in the code-point order of its name. */
function rankBy<T>(items: T[], name: (item: T) => string): Map<T, number> {
  const sorted = [...new Set(items)].sort((a, b) => compareCodePoints(name(a), name(b)));
  return new Map(sorted.map((item, i) => [item, i]));
}
