import type { Param, Sql } from './sql.js';
import type { Bitmap } from './day-sets.js';
import {
  addRangeDay,
  applyGapDeltas,
  columnGapDeltas,
  encodeGapCounts,
  GAP_DAYS,
  type GapDeltas,
  newToColumn,
  recountGaps,
} from './gap-counts.js';
import { readMarks, writeMarks } from './rollups/rollup-marks.js';

/**
 * Gap counts in the database (`AnalyticsGapCounts`, one row per project, day and column; see gap-counts.ts for what
 * they count): kept by the fold in the transaction that merges a chunk into the sets they count, recounted for
 * databases whose sets were folded before they existed, and read by the reports.
 */

/** A column of gap counts: its stored name and the member sets (by key) it is the union of. */
export interface GapColumn {
  name: string;
  members: string[];
}

/** A day's stored sets: member key → part → bitmap. */
export type DayMembers = Map<string, Map<number, Bitmap>>;

/**
 * A project whose days are being recounted (its sets were folded before gap counts existed): the first day not
 * recounted yet. The fold keeps the counts of the days before it; the recount does the others from the sets. Absent:
 * every day is counted, and the reports may read the counts.
 */
export const gapRecountMark = (projectId: string) => `gap recount:${projectId}`;

/**
 * Keeps a project's gap counts for a chunk the caller has merged into the member sets, in the caller's transaction.
 * `added`: day → part → member → the entries the chunk added to the member's set (absent before it); `loadDay` reads
 * a day's stored sets as they stand in this transaction (the chunk's included); `daysWithData` are the days with any.
 */
export async function keepGapCounts(
  tx: Sql,
  params: {
    projectId: string;
    columns: GapColumn[];
    added: Map<number, Map<number, Map<string, Bitmap>>>;
    loadDay: (day: number) => Promise<DayMembers>;
    daysWithData: Set<number>;
  },
): Promise<void> {
  const { projectId, columns, added, loadDay, daysWithData } = params;
  if (!added.size) return;
  const frontier = await recountFrontier(tx, projectId);
  // the days whose sets an added entry's gaps are read from: the GAP_DAYS days either side of each merged day
  const loaded = new Map<number, DayMembers>();
  for (const day of added.keys()) {
    for (let d = day - GAP_DAYS; d <= day + GAP_DAYS; d++) {
      if (!loaded.has(d) && (daysWithData.has(d) || added.has(d))) loaded.set(d, await loadDay(d));
    }
  }
  const parts = new Set([...added.values()].flatMap((byPart) => [...byPart.keys()]));
  const deltas = new Map<string, GapDeltas>(columns.map((c) => [c.name, new Map()]));
  const built: Bitmap[] = [];
  try {
    for (const part of parts) {
      for (const column of columns) {
        const setsOn = (day: number) =>
          column.members.flatMap((m) => {
            const set = loaded.get(day)?.get(m)?.get(part);
            return set ? [set] : [];
          });
        const fresh = new Map<number, Bitmap>();
        for (const [day, byPart] of added) {
          const members = byPart.get(part);
          if (!members) continue;
          const entries = newToColumn(
            column.members.flatMap((m) => {
              const set = loaded.get(day)?.get(m)?.get(part);
              return set ? [{ set, added: members.get(m) }] : [];
            }),
          );
          if (!entries) continue;
          built.push(entries);
          fresh.set(day, entries);
        }
        if (fresh.size) columnGapDeltas({ part, fresh, setsOn, deltas: deltas.get(column.name)! });
      }
    }
  } finally {
    for (const bitmap of built) bitmap.dispose();
  }
  // days not recounted yet are left to the recount, which reads them from the sets as they will be then
  for (const byDay of deltas.values()) for (const day of byDay.keys()) if (day >= frontier) byDay.delete(day);
  await applyDeltas(tx, projectId, deltas);
}

async function recountFrontier(sql: Sql, projectId: string): Promise<number> {
  const [row] = await sql.query<{ value: unknown }>('SELECT "value" FROM "AnalyticsState" WHERE "name" = ?', [
    gapRecountMark(projectId),
  ]);
  return row ? Number(row.value) : Number.POSITIVE_INFINITY;
}

/** Adds per-column deltas (column → day → page → gap → delta) to the stored rows. */
async function applyDeltas(tx: Sql, projectId: string, deltas: Map<string, GapDeltas>): Promise<void> {
  const days = [...new Set([...deltas.values()].flatMap((byDay) => [...byDay.keys()]))];
  if (!days.length) return;
  const stored = new Map<string, Buffer>();
  const rows = await tx.query<{ day: unknown; column: string; counts: Buffer }>(
    `SELECT "day", "column", "counts" FROM "AnalyticsGapCounts" WHERE "projectId" = ? AND "day" IN (${days.map(() => '?').join(', ')})`,
    [projectId, ...days],
  );
  for (const r of rows) stored.set(`${Number(r.day)}\0${r.column}`, r.counts);
  for (const [column, byDay] of deltas) {
    for (const [day, pages] of byDay) {
      await writeCounts(tx, projectId, day, column, applyGapDeltas(stored.get(`${day}\0${column}`), pages));
    }
  }
}

async function writeCounts(
  tx: Sql,
  projectId: string,
  day: number,
  column: string,
  pages: Map<number, Map<number, number>>,
): Promise<void> {
  const counts = encodeGapCounts(pages);
  const key: Param[] = [projectId, day, column];
  if (!counts.length) {
    await tx.run('DELETE FROM "AnalyticsGapCounts" WHERE "projectId" = ? AND "day" = ? AND "column" = ?', key);
    return;
  }
  await tx.run(
    'INSERT INTO "AnalyticsGapCounts" ("projectId", "day", "column", "counts") VALUES (?, ?, ?, ?) ' +
      'ON CONFLICT ("projectId", "day", "column") DO UPDATE SET "counts" = excluded."counts"',
    [...key, counts],
  );
}

/**
 * Recounts the gap counts of every project marked for it (see gapRecountMark), a day per transaction in ascending
 * order, moving the mark past each day and removing it after the last; returns how many days it recounted.
 * `loadDay` reads a project's stored sets of a day; `stop` is asked between days.
 */
export async function recountGapCounts(
  sql: Sql,
  params: {
    columns: GapColumn[];
    loadDay: (tx: Sql, projectId: string, day: number) => Promise<DayMembers>;
    stop?: () => boolean;
    onProgress?: (projectId: string, day: number) => void;
  },
): Promise<number> {
  const { columns, loadDay, stop, onProgress } = params;
  const marked = await sql.query<{ name: string }>('SELECT "name" FROM "AnalyticsState" WHERE "name" LIKE ?', [
    `${gapRecountMark('')}%`,
  ]);
  let recounted = 0;
  for (const { name } of marked) {
    const projectId = name.slice(gapRecountMark('').length);
    for (;;) {
      if (stop?.()) return recounted;
      const day = await sql.transaction(async (tx) => {
        const mark = gapRecountMark(projectId);
        const from = (await readMarks(tx, [mark])).get(mark)!;
        const [next] = await tx.query<{ day: unknown }>(
          'SELECT MIN("day") AS "day" FROM "AnalyticsDay" WHERE "projectId" = ? AND "day" >= ?',
          [projectId, from],
        );
        if (next.day === null) {
          await tx.run('DELETE FROM "AnalyticsState" WHERE "name" = ?', [mark]);
          return null;
        }
        const day = Number(next.day);
        await recountDay(tx, { projectId, day, columns, loadDay: (d) => loadDay(tx, projectId, d) });
        await writeMarks(tx, [[mark, day + 1]]);
        return day;
      });
      if (day === null) break;
      recounted++;
      onProgress?.(projectId, day);
    }
  }
  return recounted;
}

/** A day's gap counts of every column, recounted from the sets of the day and of the GAP_DAYS days before it. */
async function recountDay(
  tx: Sql,
  params: { projectId: string; day: number; columns: GapColumn[]; loadDay: (day: number) => Promise<DayMembers> },
): Promise<void> {
  const { projectId, day, columns, loadDay } = params;
  const days = await tx.query<{ day: unknown }>(
    'SELECT "day" FROM "AnalyticsDay" WHERE "projectId" = ? AND "day" >= ? AND "day" <= ?',
    [projectId, day - GAP_DAYS, day],
  );
  const loaded = new Map<number, DayMembers>();
  for (const r of days) loaded.set(Number(r.day), await loadDay(Number(r.day)));
  const parts = new Set([...(loaded.get(day)?.values() ?? [])].flatMap((byPart) => [...byPart.keys()]));
  await tx.run('DELETE FROM "AnalyticsGapCounts" WHERE "projectId" = ? AND "day" = ?', [projectId, day]);
  for (const column of columns) {
    const deltas: GapDeltas = new Map();
    for (const part of parts) {
      const setsOn = (d: number) =>
        column.members.flatMap((m) => {
          const set = loaded.get(d)?.get(m)?.get(part);
          return set ? [set] : [];
        });
      recountGaps({ day, part, setsOn, deltas });
    }
    const pages = deltas.get(day);
    if (pages) await writeCounts(tx, projectId, day, column.name, applyGapDeltas(undefined, pages));
  }
}

/** Whether a project's gap counts are complete (no recount under way). */
export async function gapCountsReady(sql: Sql, projectId: string): Promise<boolean> {
  return (await recountFrontier(sql, projectId)) === Number.POSITIVE_INFINITY;
}

/**
 * Distinct visitors per page (page 0: the site) of each named column over the whole days [fromDay, toDay), at most
 * GAP_DAYS + 1 of them, from the stored gap counts.
 */
export async function rangeGapCounts(
  sql: Sql,
  params: { projectId: string; fromDay: number; toDay: number; columns: string[] },
): Promise<Map<string, Map<number, number>>> {
  const { projectId, fromDay, toDay, columns } = params;
  if (toDay - fromDay > GAP_DAYS + 1) throw new Error(`gap counts answer up to ${GAP_DAYS + 1} days`);
  const out = new Map(columns.map((c) => [c, new Map<number, number>()]));
  if (!columns.length) return out;
  const rows = await sql.rows(
    `SELECT "day", "column", "counts" FROM "AnalyticsGapCounts" WHERE "projectId" = ? AND "day" >= ? AND "day" < ? AND "column" IN (${columns.map(() => '?').join(', ')})`,
    [projectId, fromDay, toDay, ...columns],
  );
  for (const [day, column, counts] of rows)
    addRangeDay(counts as Buffer, Number(day) - fromDay, out.get(column as string)!);
  return out;
}
