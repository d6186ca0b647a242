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
 * of that one page (exact, as the export is). Reads the embedded store: with ClickHouse the views are not here.
 */
export async function readPageTraffic(
  sql: Sql,
  params: { projectId: string; path: string; range: TimeRange },
): Promise<PageTraffic> {
  const traffic: PageTraffic = { days: new Map(), totals: { human: 0, ai: 0 }, agents: [], referrals: [] };
  const [page] = await sql.rows('SELECT "id" FROM "AnalyticsPage" WHERE "projectId" = ? AND "path" = ?', [
    params.projectId,
    params.path,
  ]);
  if (!page) return traffic;
  const where = `WHERE "projectId" = ? AND "pageId" = ? AND "ts" >= ? AND "ts" < ? AND "kind" IN (${KIND.human}, ${KIND.ai})`;
  const args = [params.projectId, Number(page[0]), params.range.from, params.range.to];
  const day = `CAST("ts" / ${DAY_MS} AS INTEGER)`;
  for (const [d, kind, n] of await sql.rows(
    `SELECT ${day}, "kind", COUNT(DISTINCT "visitorId") FROM "AnalyticsEvent" ${where} GROUP BY ${day}, "kind"`,
    args,
  )) {
    const cell = traffic.days.get(Number(d)) ?? { human: 0, ai: 0 };
    cell[Number(kind) === KIND.ai ? 'ai' : 'human'] = Number(n);
    traffic.days.set(Number(d), cell);
  }
  for (const [kind, n] of await sql.rows(
    `SELECT "kind", COUNT(DISTINCT "visitorId") FROM "AnalyticsEvent" ${where} GROUP BY "kind"`,
    args,
  ))
    traffic.totals[Number(kind) === KIND.ai ? 'ai' : 'human'] = Number(n);
  for (const [kind, agent, views, visitors] of await sql.rows(
    `SELECT "kind", "agent", COUNT(*), COUNT(DISTINCT "visitorId") FROM "AnalyticsEvent" ${where} AND "agent" IS NOT NULL
      GROUP BY "kind", "agent"`,
    args,
  )) {
    const name = agent as string;
    if (Number(kind) === KIND.ai)
      traffic.agents.push({ agent: name, purpose: purposeOf(name), views: Number(views), visitors: Number(visitors) });
    else if (name.startsWith(VIA))
      traffic.referrals.push({ assistant: name.slice(VIA.length), views: Number(views), visitors: Number(visitors) });
  }
  const order =
    <T extends { visitors: number }>(key: (row: T) => string) =>
    (a: T, b: T) =>
      b.visitors - a.visitors || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);
  traffic.agents.sort(order((r) => r.agent));
  traffic.referrals.sort(order((r) => r.assistant));
  return traffic;
}
