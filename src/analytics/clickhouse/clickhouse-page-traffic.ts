import { DAY_MS, type TimeRange } from '../../calendar.js';
import { KIND } from '../store/day-sets.js';
import { PAGE_VIEWS } from './clickhouse-schema.js';
import { countPageTraffic, type PageTraffic } from '../reports/page-traffic.js';
import { type ClickHouseSource, isoDay, type PendingView, pendingSelect } from './clickhouse-reports.js';
import { queryRows } from './clickhouse-client.js';
import { noVisitors, PURPOSES, type VisitorCounts } from '../reports/outcome-counts.js';
import { purposeOf } from '../store/rollups/agent-columns.js';
import { VIA_PREFIX } from '../store/write-events.js';

/**
 * Some pages' counted (human and AI) raw views of a range as one subquery of `ts, path, visitor, kind, agent`, with
 * the views of those pages still waiting in the outbox (`pending`, the project's) beside them, and its parameters.
 * The days bound the table's order (project, day, path) and its monthly partitions, the times the range itself.
 */
function pageViewsOf(params: {
  database: string;
  projectId: string;
  paths: readonly string[];
  range: TimeRange;
  pending?: PendingView[];
}): { views: string; query_params: Record<string, unknown> } {
  const { database, range } = params;
  const where = `project = {project:String} AND path IN {paths:Array(String)} AND kind IN (${KIND.human}, ${KIND.ai})
    AND day >= toDate({d0:String}) AND day < toDate({d1:String})
    AND ts >= fromUnixTimestamp64Milli({from:Int64}, 'UTC') AND ts < fromUnixTimestamp64Milli({to:Int64}, 'UTC')`;
  const wanted = new Set(params.paths);
  const pending = (params.pending ?? []).filter(
    (v) => wanted.has(v.path) && (v.kind === KIND.human || v.kind === KIND.ai) && v.ts >= range.from && v.ts < range.to,
  );
  const columns = 'ts, path, visitor, kind, agent';
  const stored = `SELECT ${columns} FROM ${database}.${PAGE_VIEWS} WHERE ${where}`;
  return {
    views: pending.length ? `(${stored} UNION ALL SELECT ${columns} FROM (${pendingSelect(pending)}))` : `(${stored})`,
    query_params: {
      project: params.projectId,
      paths: [...params.paths],
      from: range.from,
      to: range.to,
      d0: isoDay(Math.floor(range.from / DAY_MS)),
      d1: isoDay(Math.ceil(range.to / DAY_MS)),
    },
  };
}

/**
 * One page's traffic over ClickHouse, as the embedded store's page story reads it (reports/page-traffic.ts): distinct
 * visitors per UTC day and over the range by class, its AI agents and the assistants that referred humans to it,
 * counted exactly from that page's raw views (the table's order is project, day, path: one page's views are read
 * alone). The page's views of the range still waiting in the outbox (`pending`, the project's) are read beside them.
 */
export async function clickHousePageTraffic(params: ClickHouseSource & { path: string }): Promise<PageTraffic> {
  const { client, path, range } = params;
  const { views, query_params } = pageViewsOf({ ...params, paths: [path] });
  const rows = <T>(query: string) => queryRows<T>(client, query, query_params);
  if (range.to <= range.from) return countPageTraffic({ days: [], totals: [], agents: [] });
  const [days, totals, agents] = await Promise.all([
    rows<{ d: number | string; kind: number; n: number | string }>(
      `SELECT intDiv(toUnixTimestamp64Milli(ts), ${DAY_MS}) AS d, kind, uniqExact(visitor) AS n FROM ${views}
        WHERE visitor IS NOT NULL GROUP BY d, kind`,
    ),
    rows<{ kind: number; n: number | string }>(
      `SELECT kind, uniqExact(visitor) AS n FROM ${views} WHERE visitor IS NOT NULL GROUP BY kind`,
    ),
    rows<{ kind: number; agent: string; views: number | string; visitors: number | string }>(
      `SELECT kind, assumeNotNull(agent) AS agent, count() AS views, uniqExact(visitor) AS visitors FROM ${views}
        WHERE agent IS NOT NULL GROUP BY kind, agent`,
    ),
  ]);
  return countPageTraffic({
    days: days.map((r) => [Number(r.d), Number(r.kind), Number(r.n)]),
    totals: totals.map((r) => [Number(r.kind), Number(r.n)]),
    agents: agents.map((r) => [Number(r.kind), r.agent, Number(r.views), Number(r.visitors)]),
  });
}

/**
 * Exact distinct visitors of groups of pages over a range on ClickHouse, as the embedded store's outcome windows
 * count them (reports/outcome-counts.ts countOutcomeVisitors): humans, AI agents (in all and by their agent's purpose)
 * and the humans an assistant sent (`via <assistant>`), a visitor of several pages of a group once, from the pages'
 * raw views (and the project's views of the range still in the outbox, `pending`).
 */
export async function clickHouseGroupVisitors(
  params: ClickHouseSource & { groups: readonly (readonly string[])[] },
): Promise<VisitorCounts[]> {
  const { client, range, groups } = params;
  const counts = groups.map(noVisitors);
  const paths = [...new Set(groups.flat())];
  if (!paths.length || range.to <= range.from) return counts;
  const { views, query_params } = pageViewsOf({ ...params, paths });
  // the AI agents among the views, each put under its purpose as the embedded store does (purposeOf, in this process)
  const agents = await queryRows<{ agent: string }>(
    client,
    `SELECT DISTINCT ifNull(agent, '') AS agent FROM ${views} WHERE kind = ${KIND.ai} AND visitor IS NOT NULL`,
    query_params,
  );
  const ofPurpose = new Map(PURPOSES.map((p) => [p, [] as string[]]));
  for (const { agent } of agents) ofPurpose.get(purposeOf(agent || null))!.push(agent);
  const purposeColumns = PURPOSES.map(
    (p) => `uniqExactIf(visitor, kind = ${KIND.ai} AND has({agents_${p}:Array(String)}, ifNull(agent, ''))) AS ai_${p}`,
  ).join(', ');
  // each view counts for every group holding its page (groups are numbered from 1, as ClickHouse's arrays)
  const rows = await queryRows<{ g: number | string } & Record<string, number | string>>(
    client,
    `SELECT g, uniqExactIf(visitor, kind = ${KIND.human}) AS human, uniqExactIf(visitor, kind = ${KIND.ai}) AS ai,
              uniqExactIf(visitor, kind = ${KIND.human} AND startsWith(ifNull(agent, ''), {via:String})) AS referred,
              ${purposeColumns}
         FROM (SELECT visitor, kind, agent,
                      arrayJoin(arrayFilter(i -> has({groups:Array(Array(String))}[i], path), range(1, {n:UInt32} + 1))) AS g
                 FROM ${views} WHERE visitor IS NOT NULL)
        GROUP BY g`,
    {
      ...query_params,
      ...Object.fromEntries([...ofPurpose].map(([p, names]) => [`agents_${p}`, names])),
      groups: groups.map((g) => [...g]),
      n: groups.length,
      via: VIA_PREFIX,
    },
  );
  for (const row of rows) {
    const aiByPurpose = noVisitors().aiByPurpose;
    for (const p of PURPOSES) aiByPurpose[p] = Number(row[`ai_${p}`]);
    counts[Number(row.g) - 1] = {
      human: Number(row.human),
      ai: Number(row.ai),
      aiByPurpose,
      referred: Number(row.referred),
    };
  }
  return counts;
}
