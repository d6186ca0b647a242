import { inChunks, type Sql } from './sql.js';
import { derivedMark } from './rollups/rollup-marks.js';
import { unfoldedDays } from './split-range.js';
import { KIND, partsOfPage } from './day-sets.js';

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

/** One day's stored sets as read: kind → part → blob (portable format), counted in place (countPartVisitors). */
export interface DayBlobs {
  blobs: Map<number, Map<number, Buffer>>;
  bytes: number;
}

/**
 * Some days' sets as the last fold left them, by day (days without sets absent); with `pageId`, the blobs of that
 * page's parts alone, cut to its container on PostgreSQL (pairsSelection): what a reader of one page needs.
 */
export async function loadDayBlobs(
  sql: Sql,
  params: { projectId: string; days: number[]; pageId?: number },
): Promise<Map<number, DayBlobs>> {
  const byDay = new Map<number, DayBlobs>();
  const page = pairsSelection(sql, params.pageId);
  for (const days of inChunks(params.days)) {
    const rows = await sql.rows(
      `SELECT "day", "kind", "part", ${page.column} FROM "AnalyticsDaySet" WHERE "projectId" = ? AND "day" IN (${days
        .map(() => '?')
        .join(', ')})${page.parts}`,
      [...page.columnArgs, params.projectId, ...days, ...page.partArgs],
      ['int', 'int', 'int', 'bytes'],
    );
    for (const [day, kind, part, pairs] of rows) {
      if (pairs === null) continue;
      let stored = byDay.get(Number(day));
      if (!stored)
        byDay.set(
          Number(day),
          (stored = {
            blobs: new Map([
              [KIND.human, new Map()],
              [KIND.ai, new Map()],
            ]),
            bytes: 0,
          }),
        );
      stored.bytes += (pairs as Buffer).length;
      stored.blobs.get(Number(kind))?.set(Number(part), pairs as Buffer);
    }
  }
  return byDay;
}

/**
 * How a reader selects stored blobs: every part whole, or with `pageId` the parts of that page's block alone, the
 * blob cut to the page's container on PostgreSQL (`scribe_page_pairs`, migration page_pairs: the same portable format,
 * NULL when the page has none), so that container alone is sent rather than every page's; SQLite reads its mapped
 * file in process. Either way addPageVisitors then takes the page's visitors from what arrives. `column` goes in the
 * select list (its `columnArgs` before the query's), `parts` after the WHERE (its `partArgs` after the query's).
 */
export function pairsSelection(
  sql: Sql,
  pageId: number | undefined,
): { column: string; columnArgs: number[]; parts: string; partArgs: number[] } {
  if (pageId === undefined) return { column: '"pairs"', columnArgs: [], parts: '', partArgs: [] };
  const parts = { parts: ' AND "part" >= ? AND "part" < ?', partArgs: partsOfPage(pageId) };
  return sql.provider === 'postgresql'
    ? { column: 'scribe_page_pairs("pairs", ?)', columnArgs: [pageId % 65536], ...parts }
    : { column: '"pairs"', columnArgs: [], ...parts };
}

/** Views per page and class over whole days [fromDay, toDay), as the last fold left them: one sum in the database. */
export async function daysViews(
  sql: Sql,
  params: { projectId: string; fromDay: number; toDay: number },
): Promise<{ pageId: number; kind: number; views: number }[]> {
  const rows = await sql.rows(
    `SELECT "pageId", "kind", SUM("views") FROM "AnalyticsDayViews"
      WHERE "projectId" = ? AND "day" >= ? AND "day" < ? GROUP BY "pageId", "kind"`,
    [params.projectId, params.fromDay, params.toDay],
  );
  return rows.map(([pageId, kind, views]) => ({ pageId: Number(pageId), kind: Number(kind), views: Number(views) }));
}

/** Whether a day's version (dayVersions) says none of its views waits for the fold: it changes only with a late view. */
export function settledVersion(version: string): boolean {
  return version.endsWith('.0');
}

/**
 * A version of each day in [fromDay, toDay) that changes whenever an answer about the day could: its derived rows'
 * generation (a fold into the day or a rebuild bumps it) and the newest of its raw events not folded yet (a new view
 * of the day adds one; folding it bumps the generation). Null while a rebuild of the project is under way (reports
 * read raw rows then). Days with no data are absent.
 */
export async function dayVersions(
  sql: Sql,
  params: { projectId: string; fromDay: number; toDay: number },
): Promise<Map<number, string> | null> {
  const mark = await derivedMark(sql, params.projectId);
  if (mark === undefined) return null;
  const [generations, newest] = [await dayGenerations(sql, params), await unfoldedDays(sql, { ...params, mark })];
  const versions = new Map<number, string>();
  for (const day of new Set([...generations.keys(), ...newest.keys()]))
    if (day >= params.fromDay && day < params.toDay)
      versions.set(day, `${generations.get(day) ?? 0}.${newest.get(day) ?? 0}`);
  return versions;
}
