import type { TimeRange } from '../../calendar.js';
import { operatorOf } from '../ingest/classify-user-agent.js';
import { KIND } from '../store/day-sets.js';
import type { Sql } from '../store/sql.js';
import type { Dictionaries } from '../store/dictionaries.js';
import type { DayCache } from '../store/day-cache.js';
import { agentName } from '../store/rollups/agent-columns.js';
import { compareCodePoints } from './compare-code-points.js';
import { pageByPath } from './weighted-page.js';
import { pageRows, type RangeCell, viewsByPage, visitorsOfRows, withAgentCells } from './agent-cells.js';
import { pushTo } from './range-sources.js';

export interface AgentPage {
  /** the agent's name, or with `by: 'operator'` the operator's */
  agent: string;
  path: string;
  views: number;
  visitors: number;
}

/**
 * One page of which pages each AI agent (or each operator) reads, with views and distinct visitors — an operator's
 * visitors are the union of its agents' (one visitor id seen with two of its agents counts once); most views first,
 * then agent and path in code-point order. The rows are chosen by their views, then the visitors of the rows' agents
 * are counted from the union of each one's cells. Only the rows that can be on the page are sorted and built.
 */
export async function agentPages(params: {
  sql: Sql;
  dictionaries: Dictionaries;
  cache: DayCache;
  projectId: string;
  range: TimeRange;
  by: 'agent' | 'operator';
  page: { limit: number; offset: number };
}): Promise<{ rows: AgentPage[]; hasMore: boolean }> {
  const { sql, dictionaries, projectId, by } = params;
  return withAgentCells(params, async (cells) => {
    const groups = new Map<string, RangeCell[]>();
    for (const data of cells) {
      if (data.cell.kind !== KIND.ai) continue;
      const name = agentName(data.cell);
      pushTo(groups, by === 'operator' ? operatorOf(name) : name, data);
    }
    const counted = [...groups].map(([agent, group]) => ({ agent, group, views: viewsByPage(group) }));
    const { groupAt: agentAt, pageAt, viewsAt } = pageRows(counted.map(({ views }) => views));
    // the paths of the rows that can be on the page alone, for their tie order
    const page = await pageByPath({
      weights: viewsAt,
      pageOf: (i) => pageAt[i],
      paths: (ids) => dictionaries.paths(sql, projectId, ids),
      tieOrder: (a, b, pathOf) =>
        compareCodePoints(counted[agentAt[a]].agent, counted[agentAt[b]].agent) ||
        compareCodePoints(pathOf(pageAt[a]), pathOf(pageAt[b])),
      page: params.page,
    });
    const { pathOf } = page;
    // the visitors of the rows' agents on the rows' pages
    const visitors = visitorsOfRows(
      page.rows.map((i) => [agentAt[i], pageAt[i]]),
      (agent) => counted[agent].group,
    );
    return {
      rows: page.rows.map((i) => ({
        agent: counted[agentAt[i]].agent,
        path: pathOf(pageAt[i]),
        views: viewsAt[i],
        visitors: visitors.get(agentAt[i])!.get(pageAt[i]) ?? 0,
      })),
      hasMore: page.hasMore,
    };
  });
}
