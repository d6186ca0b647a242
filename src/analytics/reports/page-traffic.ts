import { DAY_MS, type TimeRange } from '../../calendar.js';
import type { Sql } from '../store/sql.js';
import { KIND } from '../store/day-sets.js';
import { purposeOf } from '../store/rollups/agent-columns.js';

/** One page's visitors over a range, read from its stored page views. */
export interface PageTraffic {
  /** distinct visitors per UTC day (days since 1970) with any */
  days: Map<number, { human: number; ai: number }>;
  /** distinct over the whole range */
  totals: { human: number; ai: number };
  /** AI agents that read it, most visitors first */
  agents: { agent: string; purpose: string; views: number; visitors: number }[];
  /** AI assistants whose answers sent humans to it, most visitors first */
  referrals: { assistant: string; views: number; visitors: number }[];
}

const VIA = 'via ';

/**
 * The page's visitors per day and in all, its AI agents and its assistant referrals, counted from the raw page views
 * of that one page (exact, as the export is). Reads the embedded store (with ClickHouse: clickhouse/clickhouse-page-traffic.ts).
 */
export async function readPageTraffic(
  sql: Sql,
  params: { projectId: string; path: string; range: TimeRange },
): Promise<PageTraffic> {
  const [page] = await sql.rows('SELECT "id" FROM "AnalyticsPage" WHERE "projectId" = ? AND "path" = ?', [
    params.projectId,
    params.path,
  ]);
  if (!page) return countPageTraffic({ days: [], totals: [], agents: [] });
  const where = `WHERE "projectId" = ? AND "pageId" = ? AND "ts" >= ? AND "ts" < ? AND "kind" IN (${KIND.human}, ${KIND.ai})`;
  const args = [params.projectId, Number(page[0]), params.range.from, params.range.to];
  const day = `CAST("ts" / ${DAY_MS} AS INTEGER)`;
  const days = await sql.rows(
    `SELECT ${day}, "kind", COUNT(DISTINCT "visitorId") FROM "AnalyticsEvent" ${where} GROUP BY ${day}, "kind"`,
    args,
  );
  const totals = await sql.rows(
    `SELECT "kind", COUNT(DISTINCT "visitorId") FROM "AnalyticsEvent" ${where} GROUP BY "kind"`,
    args,
  );
  const agents = await sql.rows(
    `SELECT "kind", "agent", COUNT(*), COUNT(DISTINCT "visitorId") FROM "AnalyticsEvent" ${where} AND "agent" IS NOT NULL
      GROUP BY "kind", "agent"`,
    args,
  );
  return countPageTraffic({
    days: days.map(([d, kind, n]) => [Number(d), Number(kind), Number(n)]),
    totals: totals.map(([kind, n]) => [Number(kind), Number(n)]),
    agents: agents.map(([kind, agent, views, visitors]) => [
      Number(kind),
      agent as string,
      Number(views),
      Number(visitors),
    ]),
  });
}

/**
 * A page's traffic from its counted rows, whichever store counted them: distinct visitors per (day, kind) and per
 * kind, and views and visitors per (kind, agent); a human view's agent `via <assistant>` is a referral.
 */
export function countPageTraffic(rows: {
  days: [day: number, kind: number, visitors: number][];
  totals: [kind: number, visitors: number][];
  agents: [kind: number, agent: string, views: number, visitors: number][];
}): PageTraffic {
  const traffic: PageTraffic = { days: new Map(), totals: { human: 0, ai: 0 }, agents: [], referrals: [] };
  for (const [d, kind, n] of rows.days) {
    const cell = traffic.days.get(d) ?? { human: 0, ai: 0 };
    cell[kind === KIND.ai ? 'ai' : 'human'] = n;
    traffic.days.set(d, cell);
  }
  for (const [kind, n] of rows.totals) traffic.totals[kind === KIND.ai ? 'ai' : 'human'] = n;
  for (const [kind, agent, views, visitors] of rows.agents) {
    if (kind === KIND.ai) traffic.agents.push({ agent, purpose: purposeOf(agent), views, visitors });
    else if (agent.startsWith(VIA)) traffic.referrals.push({ assistant: agent.slice(VIA.length), views, visitors });
  }
  const order =
    <T extends { visitors: number }>(key: (row: T) => string) =>
    (a: T, b: T) =>
      b.visitors - a.visitors || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);
  traffic.agents.sort(order((r) => r.agent));
  traffic.referrals.sort(order((r) => r.assistant));
  return traffic;
}
