import type { Sql } from './sql.js';
import type { PageCounts } from './page-counts.js';
import { RoaringBitmap32, type Bitmap } from './day-sets.js';
import {
  applyGapDeltas,
  columnGapDeltas,
  encodeGapCounts,
  GAP_DAYS,
  type GapDeltas,
  newToColumn,
  recountGaps,
  sumRangeDays,
} from './gap-counts.js';
import { readMarks, writeMarks } from './rollups/rollup-marks.js';
import { segmentKey, type DayCache } from './day-cache.js';
import { dayGenerations } from './read-days.js';
import { bumpAllCountsDays, bumpCountsDays } from './counts-cache.js';

/**
 * Gap counts in the database (`AnalyticsGapCounts` for the day sets, `AnalyticsAgentGapCounts` for the agent
 * rollup's cells: one row per project, day and column; see gap-counts.ts for what they count): kept by the fold in
 * the transaction that merges a chunk into the sets they count, recounted for databases whose sets were folded
 * before they existed, and read by the reports.
 */

/** A column of gap counts: its stored name and the member sets (by key) it is the union of. */
export interface GapColumn {
  name: string;
  members: string[];
}

export type GapTable = 'AnalyticsGapCounts' | 'AnalyticsAgentGapCounts';

/**
 * The generations of a table's days in `AnalyticsCountsDay` (family: the table's name), bumped by every write of its
 * rows, so reports keep the rows in memory and read again only the days that changed (rangeGapCounts). The day
 * sets' own generations (`AnalyticsDay`) are not bumped for this: a late entry moves the counts of later days whose
 * sets it leaves alone, and bumping theirs would make the fold rebuild its 31-day unions over them.
 */
const generationsOf = (table: GapTable) => ({ name: table, table });

/** After a project's gap rows were deleted (a rebuild): every day of both tables gets a new generation. */
export async function bumpAllGapDays(tx: Sql, projectId: string): Promise<void> {
  for (const table of ['AnalyticsGapCounts', 'AnalyticsAgentGapCounts'] as const)
    await bumpAllCountsDays(tx, { family: generationsOf(table), projectId });
}

/** A family's columns over the member sets present (by key) on the days read. */
export type ColumnsOf = (members: Set<string>) => GapColumn[];

/**
 * Sets whose unions are counted: the day sets, the agent rollup's cells. A day is read as `T`, kept in the day cache
 * across chunks under `cacheName` and its generation, and seen as members through `members`.
 */
export interface GapFamily<T extends { bytes: number } = { bytes: number }> {
  /** the table its counts are stored in */
  table: GapTable;
  columnsOf: ColumnsOf;
  cacheName: string;
  /** a project's stored sets of a day */
  loadDay(tx: Sql, projectId: string, day: number): Promise<T>;
  members(day: T): DayMembers;
}

/** What a chunk added to a family's sets: project → day → part → member → the entries absent before it. */
export type AddedSets = Map<string, Map<number, Map<number, Map<string, Bitmap>>>>;

/** Records what a chunk added to a member's set of a day and part. */
export function addAdded(
  added: AddedSets,
  at: { projectId: string; day: number; part: number; member: string },
  entries: Bitmap,
): void {
  let byDay = added.get(at.projectId);
  if (!byDay) added.set(at.projectId, (byDay = new Map()));
  let byPart = byDay.get(at.day);
  if (!byPart) byDay.set(at.day, (byPart = new Map()));
  let byMember = byPart.get(at.part);
  if (!byMember) byPart.set(at.part, (byMember = new Map()));
  byMember.set(at.member, entries);
}

/** Frees what addAdded recorded (native memory). */
export function disposeAdded(added: AddedSets): void {
  for (const byDay of added.values())
    for (const byPart of byDay.values())
      for (const byMember of byPart.values()) for (const bitmap of byMember.values()) bitmap.dispose();
}

/**
 * Per member and part, the union of its sets over the GAP_DAYS days before a day (the days the chunk did not touch),
 * kept across chunks under those days' generations: an added entry outside every member's window was not seen within
 * GAP_DAYS days, so only the others are looked for day by day. Holds native bitmaps: replaced and trimmed ones are
 * disposed; trimmed only between chunks, never while a chunk reads them.
 */
export class GapWindows {
  private entries = new Map<string, { version: string; bitmap: Bitmap; bytes: number }>();
  private bytes = 0;

  constructor(private readonly budgetBytes = 128 * 1024 * 1024) {}

  get(key: string, version: string): Bitmap | undefined {
    const entry = this.entries.get(key);
    if (!entry || entry.version !== version) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.bitmap;
  }

  set(key: string, version: string, bitmap: Bitmap): void {
    this.drop(key);
    const bytes = bitmap.getSerializationSizeInBytes(true);
    this.entries.set(key, { version, bitmap, bytes });
    this.bytes += bytes;
  }

  /** Disposes of the least recently used windows beyond the budget. */
  trim(): void {
    for (const key of this.entries.keys()) {
      if (this.bytes <= this.budgetBytes) break;
      this.drop(key);
    }
  }

  private drop(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
    entry.bitmap.dispose();
  }
}

/** Every member key of the days read. */
const memberKeys = (days: Iterable<DayMembers>) => new Set([...days].flatMap((members) => [...members.keys()]));

/** The given members' sets of one part on a day that was read (none for a day without data). */
const setsOf = (loaded: Map<number, DayMembers>, members: string[], day: number, part: number): Bitmap[] =>
  members.flatMap((m) => {
    const set = loaded.get(day)?.get(m)?.get(part);
    return set ? [set] : [];
  });

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
 * a day's stored sets as they stand in this transaction (the chunk's included); `generations` are those of the days
 * with any (around the chunk's); `windows`, when given, keeps members' unions over past days across chunks, keyed
 * by the table (see GapWindows).
 */
async function keepGapCounts(
  tx: Sql,
  params: {
    projectId: string;
    columnsOf: ColumnsOf;
    added: Map<number, Map<number, Map<string, Bitmap>>>;
    loadDay: (day: number) => Promise<DayMembers>;
    generations: Map<number, number>;
    windows?: GapWindows;
    table: GapTable;
  },
): Promise<void> {
  const { projectId, columnsOf, added, loadDay, generations, windows, table } = params;
  if (!added.size) return;
  const frontier = await recountFrontier(tx, projectId);
  // the days whose sets an added entry's gaps are read from: the GAP_DAYS days either side of each merged day
  const loaded = new Map<number, DayMembers>();
  for (const day of added.keys()) {
    for (let d = day - GAP_DAYS; d <= day + GAP_DAYS; d++) {
      if (!loaded.has(d) && (generations.has(d) || added.has(d))) loaded.set(d, await loadDay(d));
    }
  }
  const columns = columnsOf(memberKeys(loaded.values()));
  const parts = new Set([...added.values()].flatMap((byPart) => [...byPart.keys()]));
  /** a member's sets over the GAP_DAYS days before `day`: the untouched days' union (kept), the touched days' sets */
  const memberWindow = (windows: GapWindows, member: string, part: number, day: number) => {
    const untouched: number[] = [];
    const sets: Bitmap[] = [];
    for (let d = day - GAP_DAYS; d < day; d++) {
      const set = loaded.get(d)?.get(member)?.get(part);
      if (!set) continue;
      if (added.has(d)) sets.push(set);
      else untouched.push(d);
    }
    if (!untouched.length) return sets;
    const key = `${projectId}\0${table}\0${member}\0${part}\0${day}`;
    const version = untouched.map((d) => `${d}:${generations.get(d)}`).join(',');
    let union = windows.get(key, version);
    if (!union) {
      union = RoaringBitmap32.orMany(untouched.map((d) => loaded.get(d)!.get(member)!.get(part)!));
      windows.set(key, version, union);
    }
    return [union, ...sets];
  };
  const deltas = new Map<string, GapDeltas>(columns.map((c) => [c.name, new Map()]));
  const built: Bitmap[] = [];
  try {
    for (const part of parts) {
      for (const column of columns) {
        const setsOn = (day: number) => setsOf(loaded, column.members, day, part);
        const fresh = new Map<number, Bitmap>();
        for (const [day, byPart] of added) {
          const members = byPart.get(part);
          if (!members) continue;
          const entries = newToColumn(
            column.members.flatMap((m) =>
              setsOf(loaded, [m], day, part).map((set) => ({ set, added: members.get(m) })),
            ),
          );
          if (!entries) continue;
          built.push(entries);
          fresh.set(day, entries);
        }
        if (!fresh.size) continue;
        const seenWithin = windows
          ? (day: number) => column.members.flatMap((m) => memberWindow(windows, m, part, day))
          : undefined;
        columnGapDeltas({ part, fresh, setsOn, seenWithin, deltas: deltas.get(column.name)! });
      }
    }
  } finally {
    for (const bitmap of built) bitmap.dispose();
  }
  windows?.trim();
  // days not recounted yet are left to the recount, which reads them from the sets as they will be then
  for (const byDay of deltas.values()) for (const day of byDay.keys()) if (day >= frontier) byDay.delete(day);
  await applyDeltas(tx, table, projectId, deltas);
}

/**
 * Keeps a family's gap counts for a chunk merged into its sets in this transaction. Days the chunk did not touch are
 * read through `cache` when given (under their generations), the touched ones from the transaction (their rows
 * changed in it, which may still roll back).
 */
export async function keepFamilyGaps<T extends { bytes: number }>(
  tx: Sql,
  params: { family: GapFamily<T>; added: AddedSets; context: { cache?: DayCache; windows?: GapWindows } },
): Promise<void> {
  const { family, added } = params;
  const { cache, windows } = params.context;
  for (const [projectId, byDay] of added) {
    const days = [...byDay.keys()];
    const generations = await dayGenerations(tx, {
      projectId,
      fromDay: Math.min(...days) - GAP_DAYS,
      toDay: Math.max(...days) + GAP_DAYS + 1,
    });
    const loadDay = async (day: number) => {
      const generation = generations.get(day);
      if (!cache || byDay.has(day) || generation === undefined)
        return family.members(await family.loadDay(tx, projectId, day));
      const key = segmentKey(projectId, family.cacheName, 1, day);
      const version = String(generation);
      let data = cache.get<T>(key, version);
      if (!data) cache.set(key, version, (data = await family.loadDay(tx, projectId, day)));
      return family.members(data);
    };
    await keepGapCounts(tx, {
      projectId,
      columnsOf: family.columnsOf,
      added: byDay,
      loadDay,
      generations,
      windows,
      table: family.table,
    });
  }
}

async function recountFrontier(sql: Sql, projectId: string): Promise<number> {
  const [row] = await sql.query<{ value: unknown }>('SELECT "value" FROM "AnalyticsState" WHERE "name" = ?', [
    gapRecountMark(projectId),
  ]);
  return row ? Number(row.value) : Number.POSITIVE_INFINITY;
}

/** Adds per-column deltas (column → day → page → gap → delta) to the stored rows. */
async function applyDeltas(tx: Sql, table: GapTable, projectId: string, deltas: Map<string, GapDeltas>): Promise<void> {
  const days = [...new Set([...deltas.values()].flatMap((byDay) => [...byDay.keys()]))];
  if (!days.length) return;
  const stored = new Map<string, Buffer>();
  const rows = await tx.query<{ day: unknown; column: string; counts: Buffer }>(
    `SELECT "day", "column", "counts" FROM "${table}" WHERE "projectId" = ? AND "day" IN (${days.map(() => '?').join(', ')})`,
    [projectId, ...days],
  );
  for (const r of rows) stored.set(`${Number(r.day)}\0${r.column}`, r.counts);
  for (const [column, byDay] of deltas) {
    for (const [day, pages] of byDay) {
      await writeCounts(tx, table, [projectId, day, column], applyGapDeltas(stored.get(`${day}\0${column}`), pages));
    }
  }
  await bumpCountsDays(tx, { family: generationsOf(table), projectId, days });
}

/** Stores a row's counts (key: project, day, column), or deletes the row when none are left. */
async function writeCounts(
  tx: Sql,
  table: GapTable,
  key: [projectId: string, day: number, column: string],
  pages: Map<number, Map<number, number>>,
): Promise<void> {
  const counts = encodeGapCounts(pages);
  if (!counts.length) {
    await tx.run(`DELETE FROM "${table}" WHERE "projectId" = ? AND "day" = ? AND "column" = ?`, key);
    return;
  }
  await tx.run(
    `INSERT INTO "${table}" ("projectId", "day", "column", "counts") VALUES (?, ?, ?, ?) ` +
      'ON CONFLICT ("projectId", "day", "column") DO UPDATE SET "counts" = excluded."counts"',
    [...key, counts],
  );
}

/**
 * Recounts the gap counts of every project marked for it (see gapRecountMark), every family's, a day per transaction
 * in ascending order, moving the mark past each day and removing it after the last; returns how many days it
 * recounted. `stop` is asked between days.
 */
export async function recountGapCounts(
  sql: Sql,
  params: {
    families: GapFamily[];
    stop?: () => boolean;
    onProgress?: (projectId: string, day: number) => void;
  },
): Promise<number> {
  const { families, stop, onProgress } = params;
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
        for (const family of families) await recountDay(tx, { projectId, day, family });
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

/**
 * A day's gap counts of a family's columns, recounted from the sets of the day and of the GAP_DAYS days before it
 * (the caller cleared the day's rows).
 */
async function recountDay(tx: Sql, params: { projectId: string; day: number; family: GapFamily }): Promise<void> {
  const { projectId, day, family } = params;
  const days = await tx.query<{ day: unknown }>(
    'SELECT "day" FROM "AnalyticsDay" WHERE "projectId" = ? AND "day" >= ? AND "day" <= ?',
    [projectId, day - GAP_DAYS, day],
  );
  const loaded = new Map<number, DayMembers>();
  for (const r of days) loaded.set(Number(r.day), family.members(await family.loadDay(tx, projectId, Number(r.day))));
  const parts = new Set([...(loaded.get(day)?.values() ?? [])].flatMap((byPart) => [...byPart.keys()]));
  await tx.run(`DELETE FROM "${family.table}" WHERE "projectId" = ? AND "day" = ?`, [projectId, day]);
  await bumpCountsDays(tx, { family: generationsOf(family.table), projectId, days: [day] });
  for (const column of family.columnsOf(memberKeys(loaded.values()))) {
    const deltas: GapDeltas = new Map();
    for (const part of parts)
      recountGaps({ day, part, setsOn: (d) => setsOf(loaded, column.members, d, part), deltas });
    const pages = deltas.get(day);
    if (pages) await writeCounts(tx, family.table, [projectId, day, column.name], applyGapDeltas(undefined, pages));
  }
}

/** Whether a project's gap counts are complete (no recount under way). */
export async function gapCountsReady(sql: Sql, projectId: string): Promise<boolean> {
  return (await recountFrontier(sql, projectId)) === Number.POSITIVE_INFINITY;
}

/**
 * Distinct visitors per page (page 0: the site) of each named column over the whole days [fromDay, toDay), at most
 * GAP_DAYS + 1 of them, from the stored gap counts; with `pages` (ascending, distinct), those pages' alone (the others
 * are not read and have no entry).
 * With `cache`, rows are kept in memory under their day's generation and only days written since are read again
 * (on PostgreSQL a row travels as hex text: 8.5 MB of it for the export's 30 days at 10M views).
 */
export async function rangeGapCounts(
  sql: Sql,
  params: {
    table: GapTable;
    projectId: string;
    fromDay: number;
    toDay: number;
    columns: string[];
    pages?: readonly number[];
    cache?: DayCache;
  },
): Promise<Map<string, PageCounts>> {
  const { fromDay, toDay, columns, pages } = params;
  if (toDay - fromDay > GAP_DAYS + 1) throw new Error(`gap counts answer up to ${GAP_DAYS + 1} days`);
  if (!columns.length) return new Map();
  const days = new Map(columns.map((c) => [c, [] as { blob: Buffer; daysIn: number }[]]));
  for (const { day, column, blob } of await gapRows(sql, params))
    days.get(column)!.push({ blob, daysIn: day - fromDay });
  return new Map([...days].map(([column, list]) => [column, sumRangeDays(list, { pages })]));
}

/** a cached (day, column) with no row */
const NO_ROW = Buffer.alloc(0);

/** A gap row as cached: its stored counts (NO_ROW: none stored). */
interface CachedGapRow {
  blob: Buffer;
  bytes: number;
}

/** The stored rows of some columns over whole days: from the cache where their day's generation still matches. */
async function gapRows(
  sql: Sql,
  params: { table: GapTable; projectId: string; fromDay: number; toDay: number; columns: string[]; cache?: DayCache },
): Promise<{ day: number; column: string; blob: Buffer }[]> {
  const { table, projectId, fromDay, toDay, columns, cache } = params;
  const found: { day: number; column: string; blob: Buffer }[] = [];
  const key = (day: number, column: string) => `${projectId}:gaps:${table}:${day}:${column}`;
  /** day → generation, of the days read again; the others are entirely in the cache */
  const reread = new Map<number, number | undefined>();
  const generations = new Map<number, number>();
  if (cache) {
    const rows = await sql.rows(
      'SELECT "day", "generation" FROM "AnalyticsCountsDay" WHERE "projectId" = ? AND "family" = ? AND "day" >= ? AND "day" < ?',
      [projectId, table, fromDay, toDay],
    );
    for (const [day, generation] of rows) generations.set(Number(day), Number(generation));
    for (const [day, generation] of generations) {
      const cached = columns.map((column) =>
        cache.get<{ blob: Buffer; bytes: number }>(key(day, column), `${generation}`),
      );
      if (cached.some((c) => !c)) {
        reread.set(day, generation);
        continue;
      }
      cached.forEach((c, i) => {
        if (c!.blob.length) found.push({ day, column: columns[i], blob: c!.blob });
      });
    }
  }
  // every day but those whole in the cache: a day with rows and no generation (not yet given one) is read each time
  const skipped = [...generations.keys()].filter((day) => !reread.has(day));
  const rows = await sql.rows(
    `SELECT "day", "column", "counts" FROM "${table}" WHERE "projectId" = ? AND "day" >= ? AND "day" < ?` +
      ` AND "column" IN (${columns.map(() => '?').join(', ')})` +
      (skipped.length ? ` AND "day" NOT IN (${skipped.map(() => '?').join(', ')})` : ''),
    [projectId, fromDay, toDay, ...columns, ...skipped],
  );
  const read = new Set<string>();
  for (const [day, column, counts] of rows) {
    const at = { day: Number(day), column: column as string, blob: counts as Buffer };
    found.push(at);
    read.add(key(at.day, at.column));
    const generation = reread.get(at.day);
    const entry: CachedGapRow = { blob: at.blob, bytes: at.blob.length };
    if (cache && generation !== undefined) cache.set(key(at.day, at.column), `${generation}`, entry);
  }
  for (const [day, generation] of reread)
    for (const column of columns)
      if (!read.has(key(day, column))) {
        const entry: CachedGapRow = { blob: NO_ROW, bytes: 64 };
        cache!.set(key(day, column), `${generation}`, entry);
      }
  return found;
}
