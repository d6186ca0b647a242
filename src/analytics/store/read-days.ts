import type { Sql } from './sql.js';
import { KIND, RoaringBitmap32, type Bitmap } from './day-sets.js';

export interface StoredDay {
  /** kind → part → bitmap of (page, visitor) pairs */
  sets: Map<number, Map<number, Bitmap>>;
  /** `${pageId}:${kind}` → views */
  views: Map<string, number>;
  bytes: number;
}

/** Generation of each day that has data in [fromDay, toDay). */
export async function dayGenerations(
  sql: Sql,
  params: { projectId: string; fromDay: number; toDay: number },
): Promise<Map<number, number>> {
  const rows = await sql.query<{ day: number; generation: number }>(
    'SELECT "day", "generation" FROM "AnalyticsDay" WHERE "projectId" = ? AND "day" >= ? AND "day" < ?',
    [params.projectId, params.fromDay, params.toDay],
  );
  return new Map(rows.map((r) => [Number(r.day), Number(r.generation)]));
}

/** One day's sets and view counts, as the last fold left them. */
export async function loadDay(sql: Sql, params: { projectId: string; day: number }): Promise<StoredDay> {
  const { projectId, day } = params;
  const sets = new Map<number, Map<number, Bitmap>>([
    [KIND.human, new Map()],
    [KIND.ai, new Map()],
  ]);
  let bytes = 0;
  const rows = await sql.query<{ kind: number; part: number; pairs: Buffer }>(
    'SELECT "kind", "part", "pairs" FROM "AnalyticsDaySet" WHERE "projectId" = ? AND "day" = ?',
    [projectId, day],
  );
  for (const r of rows) {
    bytes += r.pairs.length;
    sets.get(Number(r.kind))?.set(Number(r.part), RoaringBitmap32.deserialize(r.pairs, true));
  }
  const viewRows = await sql.query<{ pageId: number; kind: number; views: number }>(
    'SELECT "pageId", "kind", "views" FROM "AnalyticsDayViews" WHERE "projectId" = ? AND "day" = ?',
    [projectId, day],
  );
  const views = new Map(viewRows.map((r) => [`${r.pageId}:${r.kind}`, Number(r.views)]));
  return { sets, views, bytes: bytes + viewRows.length * 64 };
}
