import type { AgentView } from '../store/robots-txt.js';
import { AGENT_DAYS } from './clickhouse-schema.js';
import { AI_AND_SPOOFED_VIEWS, type ClickHouseSource, rangeParts, REFERRED_VIEWS } from './clickhouse-reports.js';
import { queryRows } from './clickhouse-client.js';

/**
 * The embedded store's agentViewCounts (reports/agent-view-counts.ts) over ClickHouse: AI views (those with a visitor,
 * as `agent_days` keeps them), spoofed AI user agents' views (and with `referred` the humans an assistant sent) per kind, agent, verification and path; whole days
 * from `agent_days`, the partial days at the edges from raw views. The range is cut at `cuts` first; each piece's
 * counts carry its start as their `ts`. The project's views of the range still waiting in the outbox (`pending`) are
 * read as raw views beside them.
 */
export async function clickHouseAgentViewCounts(
  params: ClickHouseSource & {
    cuts?: number[];
    /** the views of humans an assistant sent too (`via <assistant>`, kind 1) */
    referred?: boolean;
  },
): Promise<AgentView[]> {
  const { client, database, range } = params;
  // agent_days holds humans only as the ones an assistant sent
  const kinds = params.referred ? '0, 1, 2' : '0, 2';
  const counted = params.referred ? `${AI_AND_SPOOFED_VIEWS} OR (${REFERRED_VIEWS})` : AI_AND_SPOOFED_VIEWS;
  const inside = [...new Set(params.cuts ?? [])].filter((t) => t > range.from && t < range.to).sort((a, b) => a - b);
  const bounds = [range.from, ...inside, range.to];
  const views: AgentView[] = [];
  for (let i = 0; i + 1 < bounds.length; i++) {
    const piece = { from: bounds[i], to: bounds[i + 1] };
    const pending = params.pending.filter((v) => v.ts >= piece.from && v.ts < piece.to);
    const parts = rangeParts(
      { ...params, range: piece, pending },
      (where) =>
        `SELECT kind, agent, verification, path, sum(views) AS n FROM ${database}.${AGENT_DAYS}
         WHERE ${where} AND kind IN (${kinds}) GROUP BY kind, agent, verification, path`,
      (raw) =>
        `SELECT kind, ifNull(agent, '') AS agent, if(kind = 2, ifNull(verification, 2), 0) AS verification, path,
           count() AS n
         FROM ${raw}
         WHERE ${counted}
         GROUP BY kind, agent, verification, path`,
    );
    if (!parts.sql) continue;
    const rows = await queryRows<{ kind: number; agent: string; verification: number; path: string; n: string }>(
      client,
      `SELECT kind, agent, verification, path, sum(n) AS n FROM (${parts.sql}) GROUP BY kind, agent, verification, path`,
      parts.params,
    );
    for (const r of rows)
      views.push({
        ts: piece.from,
        path: r.path,
        kind: Number(r.kind),
        agent: r.agent,
        verification: Number(r.verification),
        views: Number(r.n),
      });
  }
  return views;
}
