import type { TimeRange } from '../../calendar.js';
import { aiKindOf, type AiKind } from '../ingest/classify-user-agent.js';
import { KIND, type Bitmap } from '../store/day-sets.js';
import type { AnalyticsStore } from '../store/event-store.js';
import type { DayCache } from '../store/day-cache.js';
import type { CellData } from '../store/rollups/agent-days.js';
import { UNVERIFIED_PREFIX, VERIFICATION } from '../store/write-events.js';
import { compareCodePoints } from './compare-code-points.js';
import { siteDistinct, totalViews, withAgentCells } from './agent-cells.js';

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
  store: Pick<
    AnalyticsStore,
    'agentDays' | 'agentEdgeEvents' | 'dayGenerations' | 'derivedReady' | 'segment' | 'saveSegment'
  >;
  cache: DayCache;
  projectId: string;
  range: TimeRange;
}): Promise<AgentsReport> {
  return withAgentCells(params, (cells) => {
    const agents = new Map<string, CellData<Bitmap[]>[]>();
    const spoofed: SpoofedCounts[] = [];
    for (const data of cells) {
      const { kind, agent } = data.cell;
      if (kind === KIND.bot) {
        spoofed.push({
          agent: agent.slice(UNVERIFIED_PREFIX.length),
          visitors: siteDistinct([data]),
          views: totalViews([data]),
        });
      } else if (kind === KIND.ai) {
        const name = agent || 'unknown';
        agents.set(name, [...(agents.get(name) ?? []), data]);
      }
    }
    const rows = [...agents].map(([agent, group]): AgentCounts => {
      const visitors = siteDistinct(group);
      const verifiedVisitors = siteDistinct(group.filter((d) => d.cell.verification === VERIFICATION.verified));
      return {
        agent,
        kind: aiKindOf(agent) ?? 'unknown',
        visitors,
        verifiedVisitors,
        unverifiableVisitors: visitors - verifiedVisitors,
        views: totalViews(group),
      };
    });
    return { agents: rows.sort(byCounts), spoofed: spoofed.sort(byCounts) };
  });
}
