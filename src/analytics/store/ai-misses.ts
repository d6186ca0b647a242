import { DAY_MS, type TimeRange } from '../../calendar.js';
import { type CountsFamily, RangeCounts, readDayCounts } from './day-counts.js';
import type { Sql } from './sql.js';
import { splitRange } from './split-range.js';
import { bumpSignalsVersion } from './signals-version.js';

/** The misses per day, path, agent and status, as the report reads them. */
export const MISS_COUNTS: CountsFamily = {
  name: 'misses',
  table: 'AnalyticsDayAiMisses',
  keys: ['path', 'agent', 'status'],
  values: [{ column: 'count', combine: 'sum' }],
};

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
    if (inserted.length) await bumpSignalsVersion(tx, projectId);
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

/**
 * Misses in the range counted by path, agent and status (keys `[path, agent, status]`, one counted column): whole
 * days from the per-day counts through `counts` (unless `raw`: a rebuild of the project is under way), the partial
 * days at its edges from the stored misses.
 */
export async function aiMissCounts(
  sql: Sql,
  params: { projectId: string; range: TimeRange; raw?: boolean },
): Promise<RangeCounts> {
  const { projectId, range } = params;
  const { days, edges } = params.raw ? { days: null, edges: [range] } : splitRange(range);
  const found = days
    ? await readDayCounts(sql, { family: MISS_COUNTS, projectId, fromDay: days[0], toDay: days[1] })
    : new RangeCounts(MISS_COUNTS);
  for (const edge of edges) {
    const rows = await sql.rows(
      `SELECT "path", "agent", "status", COUNT(*) FROM "AnalyticsAiMiss"
        WHERE "projectId" = ? AND "ts" >= ? AND "ts" < ? GROUP BY "path", "agent", "status"`,
      [projectId, edge.from, edge.to],
    );
    for (const [path, agent, status, count] of rows)
      found.add([path as string, agent as string, Number(status)], [Number(count)]);
  }
  return found;
}
