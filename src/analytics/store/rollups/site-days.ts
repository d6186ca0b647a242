import type { Sql } from '../sql.js';
import { frozenBitmap, KIND, RoaringBitmap32, SITE_PAGE, partOf, type Bitmap } from '../day-sets.js';
import type { FoldedEvent, Rollup } from './rollup.js';

/**
 * Per day, the whole site's distinct visitors — human, AI and either — by visitor part: the rollup behind
 * `visitors/daily`, which would otherwise load every page's bitmaps of every day to read one container of each.
 * Parts split the visitors (a visitor's part is its number's high 16 bits), so a day's count is the sum of its parts'.
 *
 * Counts are recounted from the day sets as they stand after the fold merged the chunk (the fold merges them before it
 * calls the rollups), not added up: a chunk arriving late or twice and a rebuild leave the same rows.
 */
export const siteDaysRollup: Rollup = {
  name: 'site-days',
  tables: ['AnalyticsSiteDay'],
  add: addSiteDays,
};

export interface SiteDayCounts {
  human: number;
  ai: number;
  total: number;
}

/** Keys of page 0 (the site) in a part: its first container. */
const SITE_KEYS: [number, number] = [SITE_PAGE, 65536];

async function addSiteDays(tx: Sql, events: FoldedEvent[]): Promise<void> {
  const touched = new Map<string, { projectId: string; day: number; part: number }>();
  for (const e of events) {
    if ((e.kind !== KIND.human && e.kind !== KIND.ai) || e.visitorId === null) continue;
    const part = partOf(SITE_PAGE, e.visitorId);
    touched.set(`${e.projectId}\0${e.day}\0${part}`, { projectId: e.projectId, day: e.day, part });
  }
  const rows: [string, number, number, number, number, number][] = [];
  for (const { projectId, day, part } of touched.values()) {
    const sets = await tx.query<{ kind: number; pairs: Buffer }>(
      'SELECT "kind", "pairs" FROM "AnalyticsDaySet" WHERE "projectId" = ? AND "day" = ? AND "kind" IN (?, ?) AND "part" = ?',
      [projectId, day, KIND.human, KIND.ai, part],
    );
    // read, not changed: indexed in place rather than decoded (the fold wrote these blobs in this transaction)
    const bitmaps = new Map(sets.map((r) => [Number(r.kind), frozenBitmap(r.pairs)]));
    // frozen views cannot be disposed: their memory is the blob's copy, which the garbage collector frees
    const { human, ai, total } = siteCounts(bitmaps.get(KIND.human), bitmaps.get(KIND.ai));
    rows.push([projectId, day, part, human, ai, total]);
  }
  await tx.insertMany({
    table: 'AnalyticsSiteDay',
    columns: [
      ['projectId', 'text'],
      ['day', 'int'],
      ['part', 'int'],
      ['human', 'int'],
      ['ai', 'int'],
      ['total', 'int'],
    ],
    rows,
    suffix:
      'ON CONFLICT ("projectId", "day", "part") DO UPDATE SET "human" = excluded."human", "ai" = excluded."ai", "total" = excluded."total"',
  });
}

/** The site's distinct visitors in one part of a day: its page-0 container per class, and their union. */
export function siteCounts(human: Bitmap | undefined, ai: Bitmap | undefined): SiteDayCounts {
  const h = human?.rangeCardinality(...SITE_KEYS) ?? 0;
  const a = ai?.rangeCardinality(...SITE_KEYS) ?? 0;
  if (!h || !a) return { human: h, ai: a, total: h + a };
  const siteOnly = RoaringBitmap32.and(human!, RoaringBitmap32.fromRange(...SITE_KEYS));
  try {
    return { human: h, ai: a, total: h + a - siteOnly.andCardinality(ai!) };
  } finally {
    siteOnly.dispose();
  }
}

/** Whole days' site counts in [fromDay, toDay): day → counts, days without counted visitors absent. */
export async function readSiteDays(
  sql: Sql,
  params: { projectId: string; fromDay: number; toDay: number },
): Promise<Map<number, SiteDayCounts>> {
  const rows = await sql.query<{ day: number; human: unknown; ai: unknown; total: unknown }>(
    'SELECT "day", SUM("human") AS "human", SUM("ai") AS "ai", SUM("total") AS "total" FROM "AnalyticsSiteDay" ' +
      'WHERE "projectId" = ? AND "day" >= ? AND "day" < ? GROUP BY "day"',
    [params.projectId, params.fromDay, params.toDay],
  );
  return new Map(
    rows.map((r) => [Number(r.day), { human: Number(r.human), ai: Number(r.ai), total: Number(r.total) }]),
  );
}
