import fs from 'node:fs';
import type { Sql } from './sql.js';
import type { AnalyticsStore } from './store.js';
import { aiKindOf } from './classify-user-agent.js';
import { KIND } from './day-sets.js';
import type { TimeRange } from './count-range.js';
import { UNVERIFIED_PREFIX } from './prepare-event.js';

/**
 * AI traffic a docs team can act on, from the raw page views (which keep the agent, or for a human the assistant
 * that referred them as "via <assistant>"): views and visitors split by purpose, per agent (or operator) × page,
 * and AI referrals. These are grouped scans of the range's events, not the day sets of the exports.
 */

/** What the AI traffic reports read: the analytics connection and its page dictionary (the Analytics service's own). */
export interface AiTrafficSource {
  sql: Sql;
  store: Pick<AnalyticsStore, 'paths'>;
}

/** What an AI agent reads for, by its kind in the agent list (src/analytics/ai-user-agents/ai-agents.json). */
export type Purpose = 'searchIndex' | 'training' | 'assistant' | 'agent' | 'other';
const PURPOSE_OF_KIND = { search: 'searchIndex', crawler: 'training', assistant: 'assistant', agent: 'agent' } as const;

export function purposeOf(agent: string | null): Purpose {
  const kind = agent === null ? undefined : aiKindOf(agent);
  return kind ? PURPOSE_OF_KIND[kind] : 'other';
}

const operators = new Map(
  (JSON.parse(fs.readFileSync(new URL('./ai-user-agents/ai-agents.json', import.meta.url), 'utf8')) as { agents: { name: string; operator?: string }[] }).agents.map((a) => [
    a.name.toLowerCase(),
    a.operator,
  ]),
);

/** The operator of a listed agent as the agent list names it; "unknown" for unlisted or unattributed agents. */
export function operatorOf(agent: string): string {
  return operators.get(agent.toLowerCase()) ?? 'unknown';
}

/** The compatible export's columns, plus the assistant/agent split that `otherAiViews` sums. */
export interface PurposeCounts {
  humanViews: number;
  aiViews: number;
  searchIndexViews: number;
  trainingViews: number;
  assistantViews: number;
  agentViews: number;
  /** assistant + agent + unidentified AI agents */
  otherAiViews: number;
  totalViews: number;
  /**
   * AI user agents from outside their operator's published ranges (spoofed): stored as bots, so in none of the
   * other columns; always 0 under `visitors` (bots have no visitor identity)
   */
  unverifiedAiViews: number;
}

export interface PurposeSplit {
  totals: { views: PurposeCounts; visitors: PurposeCounts };
  /** every page with traffic in the range: views desc, then path asc */
  pages: { path: string; views: PurposeCounts; visitors: PurposeCounts }[];
}

const zero = (): PurposeCounts => ({ humanViews: 0, aiViews: 0, searchIndexViews: 0, trainingViews: 0, assistantViews: 0, agentViews: 0, otherAiViews: 0, totalViews: 0, unverifiedAiViews: 0 });

function add(counts: PurposeCounts, kind: number, agent: string | null, n: number): void {
  if (kind === KIND.bot) {
    counts.unverifiedAiViews += n;
    return;
  }
  counts.totalViews += n;
  if (kind === KIND.human) {
    counts.humanViews += n;
    return;
  }
  counts.aiViews += n;
  const purpose = purposeOf(agent);
  if (purpose === 'searchIndex') counts.searchIndexViews += n;
  else if (purpose === 'training') counts.trainingViews += n;
  else {
    counts.otherAiViews += n;
    if (purpose === 'assistant') counts.assistantViews += n;
    if (purpose === 'agent') counts.agentViews += n;
  }
}

type Row = { pageId: number | string | null; kind: number | string; agent: string | null; views: number | string; visitors: number | string };

/**
 * Views and distinct visitors by purpose, per page and site-wide. An AI visitor is a client address with one agent,
 * so visitors of different agents are distinct and add up; a human counts once per page and once site-wide.
 */
export async function purposeSplit(params: { source: AiTrafficSource; projectId: string; range: TimeRange }): Promise<PurposeSplit> {
  const { source, projectId, range } = params;
  const sql = source.sql;
  const filter = `"projectId" = ? AND "ts" >= ? AND "ts" < ? AND ("kind" IN (${KIND.human}, ${KIND.ai}) OR ("kind" = ${KIND.bot} AND "agent" LIKE '${UNVERIFIED_PREFIX}%'))`;
  const args = [projectId, range.from, range.to];
  // a human's agent is the assistant that referred them: not a purpose, so humans are grouped without it
  const agentColumn = `CASE WHEN "kind" <> ${KIND.human} THEN "agent" END`;
  const [byPage, site] = await Promise.all([
    sql.query<Row>(
      `SELECT "pageId" AS "pageId", "kind" AS "kind", ${agentColumn} AS "agent", COUNT(*) AS "views", COUNT(DISTINCT "visitorId") AS "visitors"
         FROM "AnalyticsEvent" WHERE ${filter} GROUP BY "pageId", "kind", ${agentColumn}`,
      args,
    ),
    sql.query<Row>(
      `SELECT NULL AS "pageId", "kind" AS "kind", ${agentColumn} AS "agent", COUNT(*) AS "views", COUNT(DISTINCT "visitorId") AS "visitors"
         FROM "AnalyticsEvent" WHERE ${filter} GROUP BY "kind", ${agentColumn}`,
      args,
    ),
  ]);
  const totals = { views: zero(), visitors: zero() };
  for (const r of site) {
    add(totals.views, Number(r.kind), r.agent, Number(r.views));
    add(totals.visitors, Number(r.kind), r.agent, Number(r.visitors));
  }
  const pages = new Map<number, { views: PurposeCounts; visitors: PurposeCounts }>();
  for (const r of byPage) {
    const id = Number(r.pageId);
    let page = pages.get(id);
    if (!page) pages.set(id, (page = { views: zero(), visitors: zero() }));
    add(page.views, Number(r.kind), r.agent, Number(r.views));
    add(page.visitors, Number(r.kind), r.agent, Number(r.visitors));
  }
  const paths = await source.store.paths(projectId, pages.keys());
  const rows = [...pages].map(([id, c]) => ({ path: paths.get(id) ?? `#${id}`, ...c }));
  rows.sort((a, b) => b.views.totalViews - a.views.totalViews || compare(a.path, b.path));
  return { totals, pages: rows };
}

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
export async function agentPages(params: { source: AiTrafficSource; projectId: string; range: TimeRange; by: 'agent' | 'operator' }): Promise<AgentPage[]> {
  const { source, projectId, range, by } = params;
  const rows = await source.sql.query<{ agent: string | null; pageId: number | string; views: number | string; visitors: number | string }>(
    `SELECT "agent" AS "agent", "pageId" AS "pageId", COUNT(*) AS "views", COUNT(DISTINCT "visitorId") AS "visitors"
       FROM "AnalyticsEvent" WHERE "projectId" = ? AND "ts" >= ? AND "ts" < ? AND "kind" = ${KIND.ai}
      GROUP BY "agent", "pageId"`,
    [projectId, range.from, range.to],
  );
  const paths = await source.store.paths(projectId, new Set(rows.map((r) => Number(r.pageId))).values());
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
  return [...merged.values()].sort((a, b) => b.views - a.views || compare(a.agent, b.agent) || compare(a.path, b.path));
}

export interface Referrals {
  /** per assistant: human views and distinct human visitors it sent */
  assistants: { assistant: string; views: number; visitors: number }[];
  /** per assistant × page, most views first */
  pages: { assistant: string; path: string; views: number; visitors: number }[];
}

/** Humans who arrived from an AI assistant (by referrer or `utm_source`), per assistant and per page. */
export async function aiReferrals(params: { source: AiTrafficSource; projectId: string; range: TimeRange }): Promise<Referrals> {
  const { source, projectId, range } = params;
  const sql = source.sql;
  const filter = `"projectId" = ? AND "ts" >= ? AND "ts" < ? AND "kind" = ${KIND.human} AND "agent" IS NOT NULL`;
  const args = [projectId, range.from, range.to];
  type R = { agent: string; pageId?: number | string; views: number | string; visitors: number | string };
  const [byAssistant, byPage] = await Promise.all([
    sql.query<R>(`SELECT "agent" AS "agent", COUNT(*) AS "views", COUNT(DISTINCT "visitorId") AS "visitors" FROM "AnalyticsEvent" WHERE ${filter} GROUP BY "agent"`, args),
    sql.query<R>(
      `SELECT "agent" AS "agent", "pageId" AS "pageId", COUNT(*) AS "views", COUNT(DISTINCT "visitorId") AS "visitors" FROM "AnalyticsEvent" WHERE ${filter} GROUP BY "agent", "pageId"`,
      args,
    ),
  ]);
  const name = (agent: string) => agent.replace(/^via /, '');
  const paths = await source.store.paths(projectId, new Set(byPage.map((r) => Number(r.pageId))).values());
  const assistants = byAssistant
    .map((r) => ({ assistant: name(r.agent), views: Number(r.views), visitors: Number(r.visitors) }))
    .sort((a, b) => b.views - a.views || compare(a.assistant, b.assistant));
  const pages = byPage
    .map((r) => ({ assistant: name(r.agent), path: paths.get(Number(r.pageId)) ?? `#${r.pageId}`, views: Number(r.views), visitors: Number(r.visitors) }))
    .sort((a, b) => b.views - a.views || compare(a.assistant, b.assistant) || compare(a.path, b.path));
  return { assistants, pages };
}

/** Code-point order: the same on every database and locale. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
