import type { TimeRange } from '../../calendar.js';
import type { Sql } from './sql.js';
import { bumpSignalsVersion } from './signals-version.js';

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
  return sql.transaction(async (tx) => {
    const inserted = await tx.insertMany<{ key: string }>({
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
    });
    if (inserted.length) await bumpSignalsVersion(tx, projectId);
    return inserted.length;
  });
}

/** Misses in the range counted by path, agent and status: one GROUP BY along the (project, time) index. */
export async function aiMissCounts(sql: Sql, params: { projectId: string; range: TimeRange }): Promise<MissCount[]> {
  const { projectId, range } = params;
  const rows = await sql.rows(
    `SELECT "path", "agent", "status", COUNT(*) FROM "AnalyticsAiMiss"
      WHERE "projectId" = ? AND "ts" >= ? AND "ts" < ? GROUP BY "path", "agent", "status"`,
    [projectId, range.from, range.to],
  );
  return rows.map(([path, agent, status, count]) => ({
    path: path as string,
    agent: agent as string,
    status: Number(status),
    count: Number(count),
  }));
}

/** One path's misses by one agent with one status. */
export interface MissCount {
  path: string;
  agent: string;
  status: number;
  count: number;
}
