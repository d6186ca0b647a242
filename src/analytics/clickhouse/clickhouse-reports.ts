import type { ClickHouseClient } from '@clickhouse/client';
import { DAY_MS, daysTouched, type TimeRange } from '../../calendar.js';
import type { Counts } from '../reports/visitors.js';
import type { Page } from '../reports/export-page.js';
import type { DayCounts } from '../reports/daily-visitors.js';
import { compareCodePoints } from '../reports/compare-code-points.js';
import { offsetPage } from '../reports/offset-page.js';
import { AGENT_DAYS, PAGE_DAYS, PAGE_VIEWS, SITE_DAYS } from './clickhouse-schema.js';
import { queryRows } from './clickhouse-client.js';
import type { AgentCounts, AgentsReport, SpoofedCounts } from '../reports/ai-agents.js';
import { aiKindOf } from '../ingest/classify-user-agent.js';
import type { AgentPage } from '../reports/ai-agent-pages.js';
import type { Referrals } from '../reports/ai-referrals.js';
import type { PurposeCounts, PurposeSplit } from '../reports/ai-purposes.js';
import { UNVERIFIED_PREFIX } from '../store/write-events.js';
import { splitRange as storeSplitRange } from '../store/split-range.js';

/**
 * How a range is read: its whole UTC days from the per-day aggregates (`page_days`), and the partial days at its
 * edges from the raw views — the embedded store's split (store/split-range.ts), as [from, to) pairs, an empty range
 * reading no edge at all.
 */
export function splitRange(range: TimeRange): { days: [number, number] | null; edges: [number, number][] } {
  const { days, edges } = storeSplitRange(range);
  return { days, edges: edges.filter((e) => e.from < e.to).map((e): [number, number] => [e.from, e.to]) };
}

/** The edges as one filter on raw views' `ts`, their bounds bound in `params` (`f0`, `t0`, …). */
export function edgesFilter(edges: [number, number][], params: Record<string, unknown>): string {
  const bounds = edges.map(([from, to], i) => {
    params[`f${i}`] = from;
    params[`t${i}`] = to;
    return `(ts >= fromUnixTimestamp64Milli({f${i}:Int64}, 'UTC') AND ts < fromUnixTimestamp64Milli({t${i}:Int64}, 'UTC'))`;
  });
  return `(${bounds.join(' OR ')})`;
}

/** A page view still in the primary database's outbox (see write-outbox.ts), read by a report beside ClickHouse's. */
export interface PendingView {
  ts: number;
  path: string;
  /** its number in the primary's visitor dictionary */
  visitor: string | null;
  kind: number;
  agent: string | null;
  referrer: string | null;
  verification: number | null;
}

/** What a ClickHouse report reads: ClickHouse, and the project's views of the range still in the outbox. */
export interface ClickHouseSource {
  client: ClickHouseClient;
  database: string;
  projectId: string;
  range: TimeRange;
  pending: PendingView[];
}

const literal = (v: string | number | null) =>
  v === null ? 'NULL' : typeof v === 'number' ? String(v) : `'${v.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;

/**
 * The raw views a report reads beside the per-day aggregates, as one subquery: ClickHouse's over the partial-day
 * edges, and the project's views of the range still waiting in the outbox (`pending`: not in any aggregate yet),
 * whatever their day. Null when there are neither.
 */
export function rawViews(
  database: string,
  edges: [number, number][],
  pending: PendingView[],
  params: Record<string, unknown>,
): string | null {
  const selects: string[] = [];
  const columns = 'day, ts, path, visitor, kind, agent, referrer, verification';
  if (edges.length) {
    selects.push(
      `SELECT ${columns} FROM ${database}.${PAGE_VIEWS} WHERE project = {project:String} AND ${edgesFilter(edges, params)}`,
    );
  }
  if (pending.length) selects.push(pendingSelect(pending));
  return selects.length ? `(${selects.join('\nUNION ALL\n')})` : null;
}

/** Waiting views (at least one) as a SELECT of raw views' columns (day, ts, path, visitor, kind, agent, …). */
export function pendingSelect(pending: PendingView[]): string {
  const rows = pending.map((v) =>
    [v.ts, v.path, v.visitor === null ? null : Number(v.visitor), v.kind, v.agent, v.referrer, v.verification]
      .map(literal)
      .join(', '),
  );
  return `SELECT toDate(fromUnixTimestamp64Milli(ms, 'UTC')) AS day, fromUnixTimestamp64Milli(ms, 'UTC') AS ts, path,
         visitor, kind, agent, referrer, verification
       FROM values('ms Int64, path String, visitor Nullable(UInt64), kind UInt8, agent Nullable(String), referrer Nullable(String), verification Nullable(UInt8)', ${rows.map((r) => `(${r})`).join(', ')})`;
}

export const isoDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/**
 * A report's parts of a range, as one UNION ALL: whole days from a per-day aggregate (`days`, handed the filter on
 * the project and those days), the partial-day edges and the waiting views from raw views (`raw`, handed their
 * subquery). Empty when there are neither; the parameters bind the project and the days.
 */
export function rangeParts(
  { database, projectId, range, pending }: ClickHouseSource,
  days: (where: string) => string,
  raw: (views: string) => string,
): { sql: string; params: Record<string, unknown> } {
  const split = splitRange(range);
  const params: Record<string, unknown> = { project: projectId };
  const selects: string[] = [];
  if (split.days) {
    params.d0 = isoDay(split.days[0]);
    params.d1 = isoDay(split.days[1]);
    selects.push(days('project = {project:String} AND day >= toDate({d0:String}) AND day < toDate({d1:String})'));
  }
  const views = rawViews(database, split.edges, pending, params);
  if (views) selects.push(raw(views));
  return { sql: selects.join('\nUNION ALL\n'), params };
}

/**
 * Per-(group, kind) parts of a range as bitmap states and view counts: whole days merged from `page_days` (or, for
 * visitors site-wide or per day, from `site_days`, one state per day instead of one per page and day), edges built
 * from raw views. `group` is a column expression (`path`, `day`, or a constant for the whole site).
 */
function partsQuery(source: ClickHouseSource, group: string, measure: 'visitors' | 'views') {
  // site_days has no path and no view counts
  const [table, views] = measure === 'visitors' && group !== 'path' ? [SITE_DAYS, '0'] : [PAGE_DAYS, 'sum(views)'];
  return rangeParts(
    source,
    (where) =>
      `SELECT ${group} AS g, kind, groupBitmapMergeState(visitors) AS v, ${views} AS n FROM ${source.database}.${table}
       WHERE ${where} GROUP BY g, kind`,
    (raw) =>
      `SELECT ${group} AS g, kind, groupBitmapState(assumeNotNull(visitor)) AS v, count() AS n FROM ${raw}
       WHERE kind IN (1, 2) AND visitor IS NOT NULL GROUP BY g, kind`,
  );
}

interface Cell {
  g: string;
  human: number | string;
  ai: number | string;
  total: number | string;
}

/** Distinct visitors (or views) per group over the range: human, AI, and both together (a union, never a sum). */
async function cells(
  source: ClickHouseSource,
  group: string,
  measure: 'visitors' | 'views',
): Promise<Map<string, Counts>> {
  const parts = partsQuery(source, group, measure);
  if (!parts.sql) return new Map();
  const select =
    measure === 'visitors'
      ? 'groupBitmapMergeIf(v, kind = 1) AS human, groupBitmapMergeIf(v, kind = 2) AS ai, groupBitmapMerge(v) AS total'
      : 'sumIf(n, kind = 1) AS human, sumIf(n, kind = 2) AS ai, sum(n) AS total';
  const query = `SELECT toString(g) AS g, ${select} FROM (${parts.sql}) GROUP BY g`;
  const rows = await queryRows<Cell>(source.client, query, parts.params);
  return new Map(rows.map((r) => [r.g, { human: Number(r.human), ai: Number(r.ai), total: Number(r.total) }] as const));
}

/** The visitors or views export over ClickHouse, in the embedded export's order and paging. */
export async function clickHouseExport(
  params: ClickHouseSource & { measure: 'visitors' | 'views'; page: { limit: number; offset: number } },
): Promise<Page> {
  const [byPath, site] = await Promise.all([
    cells(params, 'path', params.measure),
    cells(params, "''", params.measure),
  ]);
  const rows = [...byPath].map(([path, c]) => ({ path, ...c })).filter((r) => r.total > 0);
  rows.sort((a, b) => b.total - a.total || compareCodePoints(a.path, b.path));
  return { totals: site.get('') ?? { human: 0, ai: 0, total: 0 }, ...offsetPage(rows, params.page) };
}

/** Site-wide distinct visitors for each UTC day the range touches, partial edge days counting only their part. */
export async function clickHouseDailyVisitors(params: ClickHouseSource): Promise<DayCounts[]> {
  // both the aggregates and the raw views carry the UTC day; a day is either whole (aggregates) or an edge (raw)
  const byDay = await cells(params, 'toString(day)', 'visitors');
  const [first, end] = daysTouched(params.range);
  return Array.from({ length: end - first }, (_, i) => {
    const date = isoDay(first + i);
    return { date, ...(byDay.get(date) ?? { human: 0, ai: 0, total: 0 }) };
  });
}

/** The AI agents report over ClickHouse: whole days from `agent_days`, edges from raw views, exact distinct visitors. */
export async function clickHouseAgents(params: ClickHouseSource): Promise<AgentsReport> {
  const parts = agentParts(params, 'ai and spoofed', 'verification');
  if (!parts.sql) return { agents: [], spoofed: [] };
  const rows = await queryRows<{
    kind: number;
    name: string;
    visitors: string;
    verified: string;
    views: string;
    bySignature: string;
    byRange: string;
    byDns: string;
  }>(
    params.client,
    `SELECT kind,
       if(kind = 2, if(agent = '', 'unknown', agent), substring(agent, ${UNVERIFIED_PREFIX.length + 1})) AS name,
       groupBitmapMerge(v) AS visitors, groupBitmapMergeIf(v, verification IN (1, 3, 4)) AS verified, sum(n) AS views,
       sumIf(n, verification = 4) AS bySignature, sumIf(n, verification = 1) AS byRange, sumIf(n, verification = 3) AS byDns
     FROM (${parts.sql}) GROUP BY kind, name`,
    parts.params,
  );
  const agents: AgentCounts[] = [];
  const spoofed: SpoofedCounts[] = [];
  for (const r of rows) {
    const visitors = Number(r.visitors);
    const views = Number(r.views);
    if (Number(r.kind) === 0) {
      spoofed.push({ agent: r.name, visitors, views });
      continue;
    }
    const verifiedVisitors = Number(r.verified);
    agents.push({
      agent: r.name,
      kind: aiKindOf(r.name) ?? 'unknown',
      visitors,
      verifiedVisitors,
      unverifiableVisitors: visitors - verifiedVisitors,
      views,
      verifiedViews: { signature: Number(r.bySignature), ipRange: Number(r.byRange), reverseDns: Number(r.byDns) },
    });
  }
  const byCounts = <T extends { agent: string; visitors: number; views: number }>(a: T, b: T) =>
    b.visitors - a.visitors || b.views - a.views || compareCodePoints(a.agent, b.agent);
  return { agents: agents.sort(byCounts), spoofed: spoofed.sort(byCounts) };
}

/**
 * The raw views `agent_days` keeps of AI agents: AI views with a visitor, and spoofed AI user agents' views (kind 0,
 * stored as bots), whose views count though they may have no visitor.
 */
export const AI_AND_SPOOFED_VIEWS =
  "((kind = 2 AND visitor IS NOT NULL) OR (kind = 0 AND startsWith(ifNull(agent, ''), 'unverified ')))";

/** The raw views `agent_days` keeps of humans an AI assistant sent (agent "via <assistant>"). */
export const REFERRED_VIEWS = "kind = 1 AND visitor IS NOT NULL AND startsWith(ifNull(agent, ''), 'via ')";

/**
 * AI views (kind 2), or humans an AI assistant sent (kind 1, agent "via <assistant>"), of a range by agent and `by`
 * (page, or verification: a missing one read as 2, unverifiable): whole days from `agent_days`, edges from raw views.
 */
function agentParts(source: ClickHouseSource, kind: 1 | 2 | 'ai and spoofed', by: 'path' | 'verification') {
  const daysFilter = kind === 'ai and spoofed' ? 'kind IN (0, 2)' : `kind = ${kind}`;
  const rawFilter =
    kind === 'ai and spoofed' ? AI_AND_SPOOFED_VIEWS : kind === 1 ? REFERRED_VIEWS : 'kind = 2 AND visitor IS NOT NULL';
  const column = by === 'path' ? 'path' : 'if(kind = 2, ifNull(verification, 2), 0) AS verification';
  return rangeParts(
    source,
    (where) =>
      `SELECT kind, agent, ${by}, groupBitmapMergeState(visitors) AS v, sum(views) AS n FROM ${source.database}.${AGENT_DAYS}
       WHERE ${where} AND ${daysFilter} GROUP BY kind, agent, ${by}`,
    (raw) =>
      `SELECT kind, ifNull(agent, '') AS agent, ${column},
         CAST(groupBitmapIfState(assumeNotNull(visitor), visitor IS NOT NULL), 'AggregateFunction(groupBitmap, UInt64)') AS v,
         count() AS n
       FROM ${raw}
       WHERE ${rawFilter}
       GROUP BY kind, agent, ${by}`,
  );
}

/**
 * Which pages each AI agent (or operator: the union of its agents' visitors) reads over ClickHouse, in the embedded
 * report's order. Operators are named by the same table as the embedded report (`operatorOf`), handed to
 * ClickHouse as a mapping of the agent names the range holds.
 */
export async function clickHouseAgentPages(
  params: ClickHouseSource & { by: 'agent' | 'operator'; operatorOf: (agent: string) => string },
): Promise<AgentPage[]> {
  const { client, by } = params;
  const parts = agentParts(params, 2, 'path');
  if (!parts.sql) return [];
  const named = `SELECT if(agent = '', 'unknown', agent) AS name, path, v, n FROM (${parts.sql})`;
  let group = 'name';
  if (by === 'operator') {
    const names = await queryRows<{ name: string }>(client, `SELECT DISTINCT name FROM (${named})`, parts.params);
    const agents = names.map((r) => r.name);
    parts.params.agents = agents;
    parts.params.operators = agents.map((a) => params.operatorOf(a));
    group = 'transform(name, {agents:Array(String)}, {operators:Array(String)}, name)';
  }
  const rows = await queryRows<{ agent: string; path: string; views: string; visitors: string }>(
    client,
    `SELECT ${group} AS agent, path, sum(n) AS views, groupBitmapMerge(v) AS visitors FROM (${named}) GROUP BY agent, path`,
    parts.params,
  );
  return rows
    .map((r) => ({ agent: r.agent, path: r.path, views: Number(r.views), visitors: Number(r.visitors) }))
    .sort((a, b) => b.views - a.views || compareCodePoints(a.agent, b.agent) || compareCodePoints(a.path, b.path));
}

/** Humans an AI assistant sent, per assistant and per page, over ClickHouse, in the embedded report's order. */
export async function clickHouseReferrals(params: ClickHouseSource): Promise<Referrals> {
  const parts = agentParts(params, 1, 'path');
  if (!parts.sql) return { assistants: [], pages: [] };
  const named = `SELECT substring(agent, 5) AS assistant, path, v, n FROM (${parts.sql})`;
  const [byAssistant, byPage] = await Promise.all(
    ['assistant', 'assistant, path'].map(async (group) => {
      const rows = await queryRows<{ assistant: string; path?: string; views: string; visitors: string }>(
        params.client,
        `SELECT ${group}, sum(n) AS views, groupBitmapMerge(v) AS visitors FROM (${named}) GROUP BY ${group}`,
        parts.params,
      );
      return rows.map((r) => ({ ...r, views: Number(r.views), visitors: Number(r.visitors) }));
    }),
  );
  const assistants = byAssistant!
    .map(({ assistant, views, visitors }) => ({ assistant, views, visitors }))
    .sort((a, b) => b.views - a.views || compareCodePoints(a.assistant, b.assistant));
  const pages = byPage!
    .map(({ assistant, path, views, visitors }) => ({ assistant, path: path!, views, visitors }))
    .sort(
      (a, b) => b.views - a.views || compareCodePoints(a.assistant, b.assistant) || compareCodePoints(a.path, b.path),
    );
  return { assistants, pages };
}

const PURPOSE_COLUMNS = ['searchIndex', 'training', 'assistant', 'agent', 'otherAi'] as const;
type PurposeColumn = (typeof PURPOSE_COLUMNS)[number];

/**
 * AI traffic by purpose over ClickHouse, as the embedded report answers it: human, AI and total from `page_days`
 * (visitors as the visitors export counts them), each purpose column and the spoofed agents from `agent_days`, every
 * visitors figure a union over its whole cell. Agents are put in columns by the embedded report's `purposeOf`, handed
 * to ClickHouse as lists of the agent names the range holds.
 */
export async function clickHousePurposes(
  params: ClickHouseSource & { purposeOf: (agent: string | null) => string },
): Promise<PurposeSplit> {
  const { client, purposeOf } = params;
  const [visitorsByPath, visitorsSite, viewsByPath, viewsSite] = await Promise.all([
    cells(params, 'path', 'visitors'),
    cells(params, "''", 'visitors'),
    cells(params, 'path', 'views'),
    cells(params, "''", 'views'),
  ]);
  type Figures = Record<PurposeColumn | 'unverifiedAi', { views: number; visitors: number }>;
  const agentFigures = new Map<string, Figures>();
  const parts = agentParts(params, 'ai and spoofed', 'path');
  if (parts.sql) {
    const names = await queryRows<{ agent: string }>(
      client,
      `SELECT DISTINCT agent FROM (${parts.sql}) WHERE kind = 2`,
      parts.params,
    );
    const agents = names.map((r) => r.agent);
    const members = new Map(PURPOSE_COLUMNS.map((c) => [c, [] as string[]]));
    for (const agent of agents) {
      const purpose = purposeOf(agent || null);
      if (purpose === 'searchIndex' || purpose === 'training') members.get(purpose)!.push(agent);
      else {
        members.get('otherAi')!.push(agent);
        if (purpose === 'assistant' || purpose === 'agent') members.get(purpose)!.push(agent);
      }
    }
    const measures = PURPOSE_COLUMNS.map((c) => {
      parts.params[`m_${c}`] = members.get(c);
      const cond = `kind = 2 AND has({m_${c}:Array(String)}, agent)`;
      return `sumIf(n, ${cond}) AS ${c}_views, groupBitmapMergeIf(v, ${cond}) AS ${c}_visitors`;
    });
    measures.push('sumIf(n, kind = 0) AS unverifiedAi_views, groupBitmapMergeIf(v, kind = 0) AS unverifiedAi_visitors');
    for (const group of ['path', "''"]) {
      const query = `SELECT toString(${group}) AS g, ${measures.join(', ')} FROM (${parts.sql}) GROUP BY g`;
      for (const row of await queryRows<Record<string, string>>(client, query, parts.params)) {
        const figures = {} as Figures;
        for (const c of [...PURPOSE_COLUMNS, 'unverifiedAi'] as const) {
          figures[c] = { views: Number(row[`${c}_views`]), visitors: Number(row[`${c}_visitors`]) };
        }
        agentFigures.set(group === 'path' ? `/${row.g}` : '', figures);
      }
    }
  }
  const zero = { human: 0, ai: 0, total: 0 };
  const counts = (views: Counts, people: Counts, figures: Figures | undefined) => {
    const f = (c: PurposeColumn | 'unverifiedAi', what: 'views' | 'visitors') => figures?.[c][what] ?? 0;
    const side = (what: 'views' | 'visitors', own: Counts): PurposeCounts => ({
      humanViews: own.human,
      aiViews: own.ai,
      searchIndexViews: f('searchIndex', what),
      trainingViews: f('training', what),
      assistantViews: f('assistant', what),
      agentViews: f('agent', what),
      otherAiViews: f('otherAi', what),
      totalViews: what === 'views' ? own.human + own.ai : own.total,
      unverifiedAiViews: f('unverifiedAi', what),
    });
    return { views: side('views', views), visitors: side('visitors', people) };
  };
  const paths = new Set([...viewsByPath.keys(), ...[...agentFigures.keys()].filter((k) => k).map((k) => k.slice(1))]);
  const pages = [...paths].map((path) => ({
    path,
    ...counts(viewsByPath.get(path) ?? zero, visitorsByPath.get(path) ?? zero, agentFigures.get(`/${path}`)),
  }));
  pages.sort((a, b) => b.views.totalViews - a.views.totalViews || compareCodePoints(a.path, b.path));
  return { totals: counts(viewsSite.get('') ?? zero, visitorsSite.get('') ?? zero, agentFigures.get('')), pages };
}
