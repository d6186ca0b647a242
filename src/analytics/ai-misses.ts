import type { Param, Sql } from './sql.js';
import type { PageView } from './prepare-event.js';
import { classifyUserAgent } from './classify-user-agent.js';
import { isRawMarkdown, pagePath } from './page-path.js';
import { UNIDENTIFIED_AGENT } from './prepare-event.js';
import type { TimeRange } from './count-range.js';

/** A request answered 404, 410 or 5xx, with the idempotency key of its line. */
export interface Miss {
  view: PageView;
  status: number;
  key: string;
}

/** The AI agent behind a request, by the same rules as page views (raw Markdown read by an unlisted client is AI). */
function aiAgentOf(miss: Miss): string | undefined {
  const reader = classifyUserAgent(miss.view.userAgent);
  if (reader.class === 'ai') return reader.agent;
  if (reader.class === 'human' && isRawMarkdown(miss.view.url)) return UNIDENTIFIED_AGENT;
  return undefined;
}

/**
 * Keeps the requests of AI agents among `misses` (404/410/5xx from a log); others, and static assets, are dropped.
 * Each is stored once per key, so importing a log again adds nothing. Returns how many were new.
 */
export async function recordAiMisses(sql: Sql, projectId: string, misses: Miss[]): Promise<number> {
  const rows: Param[][] = [];
  for (const miss of misses) {
    const agent = aiAgentOf(miss);
    const path = agent === undefined ? undefined : pagePath(miss.view.url);
    if (agent === undefined || path === undefined || !(miss.view.timestamp >= 0)) continue;
    rows.push([projectId, miss.key, Math.floor(miss.view.timestamp), path, agent, miss.status]);
  }
  if (!rows.length) return 0;
  const inserted = await sql.transaction((tx) =>
    tx.insertMany<{ key: string }>({
      table: 'AnalyticsAiMiss',
      columns: [['projectId', 'text'], ['key', 'text'], ['ts', 'bigint'], ['path', 'text'], ['agent', 'text'], ['status', 'int']],
      rows,
      suffix: 'ON CONFLICT DO NOTHING RETURNING "key"',
    }),
  );
  return inserted.length;
}

export interface AiMissRow {
  path: string;
  agent: string;
  status: number;
  count: number;
}

/** AI requests answered 404/410/5xx in the range by path, agent and status; most first, then path, agent, status. */
export async function aiMisses(params: { sql: Sql; projectId: string; range: TimeRange }): Promise<AiMissRow[]> {
  const rows = await params.sql.query<{ path: string; agent: string; status: number | string; count: number | string }>(
    `SELECT "path" AS "path", "agent" AS "agent", "status" AS "status", COUNT(*) AS "count" FROM "AnalyticsAiMiss"
      WHERE "projectId" = ? AND "ts" >= ? AND "ts" < ? GROUP BY "path", "agent", "status"`,
    [params.projectId, params.range.from, params.range.to],
  );
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return rows
    .map((r) => ({ path: r.path, agent: r.agent, status: Number(r.status), count: Number(r.count) }))
    .sort((a, b) => b.count - a.count || cmp(a.path, b.path) || cmp(a.agent, b.agent) || a.status - b.status);
}
