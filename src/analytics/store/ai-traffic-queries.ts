import type { TimeRange } from '../../calendar.js';
import type { Sql } from './sql.js';
import { KIND } from './day-sets.js';
import { UNVERIFIED_PREFIX } from './write-events.js';

/**
 * The grouped scans behind the AI traffic reports, over the raw page views (which keep the agent, or for a human the
 * assistant that referred them as "via <assistant>"). Counts come back as the database gives them: numbers, or
 * strings for PostgreSQL's bigint counts.
 */

type Count = number | string;

/** Views and distinct visitors per kind and agent, per page (`byPage`) and site-wide (`site`, pageId null). */
export interface PurposeRow {
  pageId: number | string | null;
  kind: number | string;
  agent: string | null;
  views: Count;
  visitors: Count;
}

export async function purposeRows(
  sql: Sql,
  params: { projectId: string; range: TimeRange },
): Promise<{ byPage: PurposeRow[]; site: PurposeRow[] }> {
  const { projectId, range } = params;
  const filter = `"projectId" = ? AND "ts" >= ? AND "ts" < ? AND ("kind" IN (${KIND.human}, ${KIND.ai}) OR ("kind" = ${KIND.bot} AND "agent" LIKE '${UNVERIFIED_PREFIX}%'))`;
  const args = [projectId, range.from, range.to];
  // a human's agent is the assistant that referred them: not a purpose, so humans are grouped without it
  const agentColumn = `CASE WHEN "kind" <> ${KIND.human} THEN "agent" END`;
  const [byPage, site] = await Promise.all([
    sql.query<PurposeRow>(
      `SELECT "pageId" AS "pageId", "kind" AS "kind", ${agentColumn} AS "agent", COUNT(*) AS "views", COUNT(DISTINCT "visitorId") AS "visitors"
         FROM "AnalyticsEvent" WHERE ${filter} GROUP BY "pageId", "kind", ${agentColumn}`,
      args,
    ),
    sql.query<PurposeRow>(
      `SELECT NULL AS "pageId", "kind" AS "kind", ${agentColumn} AS "agent", COUNT(*) AS "views", COUNT(DISTINCT "visitorId") AS "visitors"
         FROM "AnalyticsEvent" WHERE ${filter} GROUP BY "kind", ${agentColumn}`,
      args,
    ),
  ]);
  return { byPage, site };
}

/** AI views and distinct visitors per agent (null when unnamed) and page. */
export function agentPageRows(
  sql: Sql,
  params: { projectId: string; range: TimeRange },
): Promise<{ agent: string | null; pageId: number | string; views: Count; visitors: Count }[]> {
  return sql.query(
    `SELECT "agent" AS "agent", "pageId" AS "pageId", COUNT(*) AS "views", COUNT(DISTINCT "visitorId") AS "visitors"
       FROM "AnalyticsEvent" WHERE "projectId" = ? AND "ts" >= ? AND "ts" < ? AND "kind" = ${KIND.ai}
      GROUP BY "agent", "pageId"`,
    [params.projectId, params.range.from, params.range.to],
  );
}

/** A referring assistant's human views and distinct visitors; `pageId` only in the per-page rows. */
export interface ReferralRow {
  agent: string;
  pageId?: number | string;
  views: Count;
  visitors: Count;
}

/** Humans who arrived from an AI assistant, per assistant (`agent`, "via <assistant>") and per assistant × page. */
export async function referralRows(
  sql: Sql,
  params: { projectId: string; range: TimeRange },
): Promise<{ byAssistant: ReferralRow[]; byPage: ReferralRow[] }> {
  const { projectId, range } = params;
  const filter = `"projectId" = ? AND "ts" >= ? AND "ts" < ? AND "kind" = ${KIND.human} AND "agent" IS NOT NULL`;
  const args = [projectId, range.from, range.to];
  const [byAssistant, byPage] = await Promise.all([
    sql.query<ReferralRow>(
      `SELECT "agent" AS "agent", COUNT(*) AS "views", COUNT(DISTINCT "visitorId") AS "visitors" FROM "AnalyticsEvent" WHERE ${filter} GROUP BY "agent"`,
      args,
    ),
    sql.query<ReferralRow>(
      `SELECT "agent" AS "agent", "pageId" AS "pageId", COUNT(*) AS "views", COUNT(DISTINCT "visitorId") AS "visitors" FROM "AnalyticsEvent" WHERE ${filter} GROUP BY "agent", "pageId"`,
      args,
    ),
  ]);
  return { byAssistant, byPage };
}
