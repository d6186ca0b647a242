import type { TimeRange } from '../../calendar.js';
import type { Sql } from '../store/sql.js';
import { aiKindOf, type AiKind } from '../ingest/classify-user-agent.js';
import { KIND } from '../store/day-sets.js';
import { agentName } from '../store/rollups/agent-columns.js';
import type { DayCache } from '../store/day-cache.js';
import { isVerified, UNVERIFIED_PREFIX, VERIFICATION } from '../store/write-events.js';
import { compareCodePoints } from './compare-code-points.js';
import { type RangeCell, siteDistinct, totalViews, withAgentCells } from './agent-cells.js';
import { pushTo } from './range-sources.js';

export interface AgentCounts {
  agent: string;
  kind: AiKind | 'unknown';
  /** distinct visitors of the agent over the range */
  visitors: number;
  /** those seen at least once in the range from inside a fresh authoritative list of the operator (or FCrDNS) */
  verifiedVisitors: number;
  /** the others: never verified in the range (`visitors - verifiedVisitors`) */
  unverifiableVisitors: number;
  views: number;
  /** the agent's views by how they were verified (the rest of `views` unverifiable) */
  verifiedViews: VerifiedViews;
}

/** Views by verification method: a Web Bot Auth signature, the operator's published addresses, reverse DNS. */
export interface VerifiedViews {
  signature: number;
  ipRange: number;
  reverseDns: number;
}

/** AI user agents from outside their operator's published ranges, by the agent they claimed. */
export interface SpoofedCounts {
  agent: string;
  visitors: number;
  views: number;
}

export interface AgentsReport {
  agents: AgentCounts[];
  spoofed: SpoofedCounts[];
}

const byCounts = <T extends { agent: string; visitors: number; views: number }>(a: T, b: T) =>
  b.visitors - a.visitors || b.views - a.views || compareCodePoints(a.agent, b.agent);

/**
 * AI traffic by agent over the range, most visitors first, and the spoofed user agents beside it. A visitor an
 * agent brought both verified and unverifiable in the range is verified: the two columns split `visitors` exactly.
 */
export async function aiAgents(params: {
  sql: Sql;
  cache: DayCache;
  projectId: string;
  range: TimeRange;
}): Promise<AgentsReport> {
  // site-wide counts alone: each bitmap's site container, with no union of every page's built for them
  return withAgentCells(params, (cells) => {
    const agents = new Map<string, RangeCell[]>();
    const spoofedCells: RangeCell[] = [];
    for (const data of cells) {
      if (data.cell.kind === KIND.bot) spoofedCells.push(data);
      else if (data.cell.kind === KIND.ai) {
        pushTo(agents, agentName(data.cell), data);
      }
    }
    const spoofed = spoofedCells.map(
      (data): SpoofedCounts => ({
        agent: data.cell.agent.slice(UNVERIFIED_PREFIX.length),
        visitors: siteDistinct([data]),
        views: totalViews([data]),
      }),
    );
    const rows = [...agents].map(([agent, group]): AgentCounts => {
      const visitors = siteDistinct(group);
      const verifiedVisitors = siteDistinct(group.filter((d) => isVerified(d.cell.verification)));
      return {
        agent,
        kind: aiKindOf(agent) ?? 'unknown',
        visitors,
        verifiedVisitors,
        unverifiableVisitors: visitors - verifiedVisitors,
        views: totalViews(group),
        verifiedViews: {
          signature: totalViews(group.filter((d) => d.cell.verification === VERIFICATION.signature)),
          ipRange: totalViews(group.filter((d) => d.cell.verification === VERIFICATION.verified)),
          reverseDns: totalViews(group.filter((d) => d.cell.verification === VERIFICATION.reverseDns)),
        },
      };
    });
    return { agents: rows.sort(byCounts), spoofed: spoofed.sort(byCounts) };
  });
}
