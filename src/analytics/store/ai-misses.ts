import { DAY_MS, type TimeRange } from '../../calendar.js';
import type { Sql } from './sql.js';
import { splitRange } from './split-range.js';

/** An AI request a server answered 404, 410 or 5xx, as stored: no address is kept. */
export interface StoredMiss {
  /** idempotency key of its log line */
  key: string;
  ts: number;
  path: string;
  agent: string;
  status: number;
}

/**
 * Stores each miss once per key, so importing a log again adds nothing, and adds the new ones to the per-day counts
 * in the same transaction; returns how many were new.
 */
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
    const fresh = new Set(inserted.map((r) => r.key));
    const counts = new Map<string, number>();
    for (const m of misses) {
      // a key given twice in one call is stored once
      if (!fresh.delete(m.key)) continue;
      const cell = JSON.stringify([Math.floor(m.ts / DAY_MS), m.path, m.agent, m.status]);
      counts.set(cell, (counts.get(cell) ?? 0) + 1);
    }
    await tx.insertMany({
      table: 'AnalyticsDayAiMisses',
      columns: [
        ['projectId', 'text'],
        ['day', 'int'],
        ['path', 'text'],
        ['agent', 'text'],
        ['status', 'int'],
        ['count', 'int'],
      ],
      rows: [...counts].map(([cell, n]) => [projectId, ...(JSON.parse(cell) as [number, string, string, number]), n]),
      suffix: `ON CONFLICT ("projectId", "day", "path", "agent", "status") DO UPDATE SET "count" = "AnalyticsDayAiMisses"."count" + excluded."count"`,
    });
    return inserted.length;
  });
}

/** The per-day counts of a project's misses recounted from the stored misses (a rebuild), in the caller's transaction. */
export async function recountAiMisses(tx: Sql, projectId: string): Promise<void> {
  await tx.run('DELETE FROM "AnalyticsDayAiMisses" WHERE "projectId" = ?', [projectId]);
  const day = `CAST("ts" / ${DAY_MS} AS INTEGER)`;
  await tx.run(
    `INSERT INTO "AnalyticsDayAiMisses" ("projectId", "day", "path", "agent", "status", "count")
     SELECT "projectId", ${day}, "path", "agent", "status", COUNT(*) FROM "AnalyticsAiMiss" WHERE "projectId" = ?
      GROUP BY "projectId", ${day}, "path", "agent", "status"`,
    [projectId],
  );
}

type MissCount = { path: string; agent: string; status: number; count: number };

/**
 * Misses in the range counted by path, agent and status: whole days from the per-day counts (unless `raw`: a rebuild
 * of the project is under way), the partial days at its edges from the stored misses.
 */
export async function aiMissCounts(
  sql: Sql,
  params: { projectId: string; range: TimeRange; raw?: boolean },
): Promise<MissCount[]> {
  const { projectId, range } = params;
  const { days, edges } = params.raw ? { days: null, edges: [range] } : splitRange(range);
  const cells = new Map<string, MissCount>();
  const add = (r: { path: string; agent: string; status: unknown; count: unknown }) => {
    const status = Number(r.status);
    const key = JSON.stringify([r.path, r.agent, status]);
    const cell = cells.get(key);
    if (cell) cell.count += Number(r.count);
    else cells.set(key, { path: r.path, agent: r.agent, status, count: Number(r.count) });
  };
  type Row = { path: string; agent: string; status: unknown; count: unknown };
  if (days) {
    const rows = await sql.query<Row>(
      `SELECT "path" AS "path", "agent" AS "agent", "status" AS "status", SUM("count") AS "count" FROM "AnalyticsDayAiMisses"
        WHERE "projectId" = ? AND "day" >= ? AND "day" < ? GROUP BY "path", "agent", "status"`,
      [projectId, days[0], days[1]],
    );
    rows.forEach(add);
  }
  for (const edge of edges) {
    const rows = await sql.query<Row>(
      `SELECT "path" AS "path", "agent" AS "agent", "status" AS "status", COUNT(*) AS "count" FROM "AnalyticsAiMiss"
        WHERE "projectId" = ? AND "ts" >= ? AND "ts" < ? GROUP BY "path", "agent", "status"`,
      [projectId, edge.from, edge.to],
    );
    rows.forEach(add);
  }
  return [...cells.values()];
}
