import type { Sql } from './sql.js';
import { derivedMark } from './rollups/rollup-marks.js';
import { unfoldedDays } from './split-range.js';
import { frozenBitmap, KIND, pagePairsOfBlob, partsOfPage, RoaringBitmap32, type Bitmap } from './day-sets.js';

/** One day's (or several days' united) sets: kind → part → bitmap of (page, visitor) pairs. */
export interface StoredDaySets {
  sets: Map<number, Map<number, Bitmap>>;
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

/** kind → part → bitmap, with no part yet for either counted class. */
const emptySets = () =>
  new Map<number, Map<number, Bitmap>>([
    [KIND.human, new Map()],
    [KIND.ai, new Map()],
  ]);

/** One day's sets, as the last fold left them. */
export async function loadDaySets(sql: Sql, params: { projectId: string; day: number }): Promise<StoredDaySets> {
  const sets = emptySets();
  let bytes = 0;
  const rows = await sql.rows(
    'SELECT "kind", "part", "pairs" FROM "AnalyticsDaySet" WHERE "projectId" = ? AND "day" = ?',
    [params.projectId, params.day],
  );
  for (const [kind, part, pairs] of rows) {
    bytes += (pairs as Buffer).length;
    sets.get(Number(kind))?.set(Number(part), frozenBitmap(pairs as Buffer));
  }
  return { sets, bytes };
}

/** The most pages a reader of a few pages cuts from each stored blob; a reader of more reads whole days. */
export const FEW_PAGES = 16;

/**
 * How a reader of a few pages (at most FEW_PAGES) selects a stored blob's pairs: PostgreSQL cuts each page's container
 * out in the database (`scribe_page_pairs`, migration page_pairs: the same portable format, NULL when the page has
 * none), a column a page, so those containers alone are sent rather than every page's; SQLite reads its mapped file in
 * process. Either way pagesPairsOf then takes the pages' pairs from what arrives.
 */
export function pagePairsColumns(sql: Sql, pageIds: readonly number[]): { columns: string; args: number[] } {
  return sql.provider === 'postgresql'
    ? { columns: pageIds.map(() => 'scribe_page_pairs("pairs", ?)').join(', '), args: pageIds.map((p) => p % 65536) }
    : { columns: '"pairs"', args: [] };
}

/**
 * The pages' pairs of a part as read through pagePairsColumns (`blobs`: the row's values from that column on), one new
 * bitmap, or undefined when none of the pages has any: each page's container copied from the blob without indexing
 * the others'.
 */
export function pagesPairsOf(sql: Sql, blobs: unknown[], part: number, pageIds: readonly number[]): Bitmap | undefined {
  const pairs = new RoaringBitmap32();
  pageIds.forEach((page, i) => {
    const blob = (sql.provider === 'postgresql' ? blobs[i] : blobs[0]) as Buffer | null;
    if (blob === null) return;
    const own = pagePairsOfBlob(blob, part, page);
    pairs.orInPlace(own);
    own.dispose();
  });
  if (!pairs.isEmpty) return pairs;
  pairs.dispose();
  return undefined;
}

/** The parts holding the pages' pairs (see partsOfPage), as one [from, to). */
export function partsOfPages(pageIds: readonly number[]): [number, number] {
  const bounds = pageIds.map(partsOfPage);
  return [Math.min(...bounds.map(([from]) => from)), Math.max(...bounds.map(([, to]) => to))];
}

/**
 * One day's sets cut to a few pages' pairs (at most FEW_PAGES): what a reader of those pages alone needs, copied from
 * the stored blobs without indexing the other pages' containers. The bitmaps are the entry's own (freed with it).
 */
export async function loadDayPageSets(
  sql: Sql,
  params: { projectId: string; day: number; pageIds: readonly number[] },
): Promise<StoredDaySets & { owned: Bitmap[] }> {
  const sets = emptySets();
  const owned: Bitmap[] = [];
  let bytes = 0;
  const pages = pagePairsColumns(sql, params.pageIds);
  const rows = await sql.rows(
    `SELECT "kind", "part", ${pages.columns} FROM "AnalyticsDaySet" WHERE "projectId" = ? AND "day" = ? AND "part" >= ? AND "part" < ?`,
    [...pages.args, params.projectId, params.day, ...partsOfPages(params.pageIds)],
  );
  for (const [kind, part, ...blobs] of rows) {
    const pairs = pagesPairsOf(sql, blobs, Number(part), params.pageIds);
    if (!pairs) continue;
    owned.push(pairs);
    bytes += pairs.getSerializationSizeInBytes(true);
    sets.get(Number(kind))?.set(Number(part), pairs);
  }
  return { sets, bytes, owned };
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
