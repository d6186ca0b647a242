import type { TimeRange } from '../../calendar.js';
import type { Sql } from './sql.js';
import { KIND } from './day-sets.js';
import { UNVERIFIED_PREFIX, VIA_PREFIX } from './write-events.js';

/** A raw page view as the AI traffic reports read it at the partial-day edges of a range. */
export interface AgentEdgeEvent {
  pageId: number;
  visitorId: number | null;
  kind: number;
  agent: string | null;
  verification: number | null;
}

/**
 * The raw page views of the range that count in the agent rollup's cells (AI and human views, spoofed AI user
 * agents): the partial days at the edges of a report's range, which no rollup holds.
 */
export async function agentEdgeEvents(
  sql: Sql,
  params: { projectId: string; range: TimeRange; aiOnly?: boolean; referred?: boolean },
): Promise<AgentEdgeEvent[]> {
  // most raw views are humans': a reader of AI views alone leaves them in the database (but for the humans an
  // assistant sent, with `referred`)
  const kinds = params.aiOnly ? `${KIND.ai}` : `${KIND.human}, ${KIND.ai}`;
  const sent = params.aiOnly && params.referred ? ` OR ("kind" = ${KIND.human} AND "agent" LIKE '${VIA_PREFIX}%')` : '';
  const rows = await sql.rows(
    `SELECT "pageId", "visitorId", "kind", "agent", "verification" FROM "AnalyticsEvent"
      WHERE "projectId" = ? AND "ts" >= ? AND "ts" < ?
        AND ("kind" IN (${kinds}) OR ("kind" = ${KIND.bot} AND "agent" LIKE '${UNVERIFIED_PREFIX}%')${sent})`,
    [params.projectId, params.range.from, params.range.to],
  );
  return rows.map(([pageId, visitorId, kind, agent, verification]) => ({
    pageId: Number(pageId),
    visitorId: visitorId === null ? null : Number(visitorId),
    kind: Number(kind),
    agent: agent as string | null,
    verification: verification === null ? null : Number(verification),
  }));
}
