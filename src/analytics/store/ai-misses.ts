import type { TimeRange } from '../../calendar.js';
import type { Sql } from './sql.js';

/** An AI request a server answered 404, 410 or 5xx, as stored: no address is kept. */
export interface StoredMiss {
  /** idempotency key of its log line */
  key: string;
  ts: number;
  path: string;
  agent: string;
  status: number;
}

/** Stores each miss once per key, so importing a log again adds nothing; returns how many were new. */
export async function insertAiMisses(sql: Sql, params: { projectId: string; misses: StoredMiss[] }): Promise<number> {
  const { projectId, misses } = params;
  if (!misses.length) return 0;
  const inserted = await sql.transaction((tx) =>
    tx.insertMany<{ key: string }>({
      table: 'AnalyticsAiMiss',
      columns: [
        ['projectId', 'text'],
        ['key', 'text'],
        ['ts', 'bigint'],
        ['path', 'text'],
        ['agent', 'text'],
        ['status', 'int'],
      ],
      rows: misses.map((m) => [projectId, m.key, m.ts, m.path, m.agent, m.status]),
      suffix: 'ON CONFLICT DO NOTHING RETURNING "key"',
    }),
  );
  return inserted.length;
}

/** Misses in the range counted by path, agent and status. */
export async function aiMissCounts(
  sql: Sql,
  params: { projectId: string; range: TimeRange },
): Promise<{ path: string; agent: string; status: number; count: number }[]> {
  const rows = await sql.query<{ path: string; agent: string; status: number | string; count: number | string }>(
    `SELECT "path" AS "path", "agent" AS "agent", "status" AS "status", COUNT(*) AS "count" FROM "AnalyticsAiMiss"
      WHERE "projectId" = ? AND "ts" >= ? AND "ts" < ? GROUP BY "path", "agent", "status"`,
    [params.projectId, params.range.from, params.range.to],
  );
  return rows.map((r) => ({ path: r.path, agent: r.agent, status: Number(r.status), count: Number(r.count) }));
}
