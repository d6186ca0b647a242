import type { DayCache } from './day-cache.js';
import type { Param, Sql } from './sql.js';

/**
 * Per-day counts kept in memory (AI misses, searches): a report over 30 days adds up about as many rows as the site
 * had distinct things on each of those days, and reading them from the database again on every call costs more than
 * the adding. Each day's rows are cached under the generation of that day in `AnalyticsCountsDay`, which every write
 * to the family's counts bumps in its own transaction, so a cached day is checked with one small query and read again
 * when it changed (on any replica).
 */

/** A family of per-day counts: rows named by key columns within a day, with counted columns. */
export interface CountsFamily {
  /** names the family's generations (`AnalyticsCountsDay.family`) and its cache entries */
  name: string;
  table: string;
  /** the columns naming a row within a day, as SQL returns them (text or int) */
  keys: readonly string[];
  /** the counted columns, and how two days' values combine */
  values: readonly { column: string; combine: 'sum' | 'max' }[];
}

/** One key column's values, each to the next column's level or, in the last column, to the key's id. */
type KeyLevel = Map<Param, KeyLevel | number>;

/** Keys of one project's family as small ids, in the order first seen: ids index the arrays of a RangeCounts. */
export class KeyIds {
  /**
   * Keys found column by column: a row's values are looked up as SQL returned them, without building a name for
   * the key (a new string per row, hashed again: most of the cost of reading a day the first time).
   */
  private readonly levels: KeyLevel = new Map();
  /**
   * each key's values column by column (`columns[c][id]`): a new key adds a value to each column, not an array of its
   * own (one object per key more for the collector to copy and trace: most of a first read's cost)
   */
  private readonly columns: Param[][] = [];
  private count = 0;
  /** each key's first column as a small number (its value's index in `firstValues`), by key id */
  private firsts = new Int32Array(1024);
  private readonly firstValues = new Map<Param, number>();

  constructor(readonly epoch: number) {}

  id(key: Param[]): number {
    return this.idOfRow(key, key.length);
  }

  /**
   * The id of the key in a row's first `width` columns (as SQL returns them: text stays text, numbers, PostgreSQL's
   * int too, become numbers), given one when new. A family's keys all have `width` columns.
   */
  idOfRow(row: readonly unknown[], width: number): number {
    let level = this.levels;
    for (let c = 0; c < width - 1; c++) {
      const value = keyValue(row[c]);
      let next = level.get(value) as KeyLevel | undefined;
      if (next === undefined) level.set(value, (next = new Map()));
      level = next;
    }
    const last = keyValue(row[width - 1]);
    let id = level.get(last) as number | undefined;
    if (id === undefined) {
      id = this.count++;
      level.set(last, id);
      for (let c = 0; c < width; c++) (this.columns[c] ??= []).push(keyValue(row[c]));
      const value = this.columns[0][id];
      let first = this.firstValues.get(value);
      if (first === undefined) this.firstValues.set(value, (first = this.firstValues.size));
      if (id >= this.firsts.length) {
        const grown = new Int32Array(this.firsts.length * 2);
        grown.set(this.firsts);
        this.firsts = grown;
      }
      this.firsts[id] = first;
    }
    return id;
  }

  /**
   * Key `id`'s first column as a small number (< firstCount): reading it costs no look-up of the key's text, which
   * lies scattered in memory (a pass over many keys' text costs several times more than over their numbers).
   */
  firstOf(id: number): number {
    return this.firsts[id];
  }

  /** The number of a first-column value (see firstOf); undefined when no key has it. */
  firstNumber(value: Param): number | undefined {
    return this.firstValues.get(value);
  }

  /** how many first-column values the keys have (their numbers are below it) */
  get firstCount(): number {
    return this.firstValues.size;
  }

  /** The keys' first-column values as a mask by their numbers (values never seen are left out: no key has them). */
  firstMask(values: Iterable<Param>): Uint8Array {
    const mask = new Uint8Array(this.firstCount);
    for (const value of values) {
      const first = this.firstNumber(value);
      if (first !== undefined) mask[first] = 1;
    }
    return mask;
  }

  /** Key `id`'s value in column `c`. */
  value(id: number, c: number): Param {
    return this.columns[c][id];
  }

  /** Key `id`, its columns in order. */
  key(id: number): Param[] {
    return this.columns.map((column) => column[id]);
  }

  get size(): number {
    return this.count;
  }
}

/**
 * One day's rows as cached: key ids, and their counted values row by row (the family's columns in order). A day read
 * for some first-column values only (CountsRead.firsts) holds their rows alone until another read asks for more.
 */
interface CachedDay {
  /** the first-column values whose rows the day holds: all of them, or these */
  covers: 'all' | ReadonlySet<Param>;
  ids: Int32Array;
  /** each row's first key column as its number (KeyIds.firstOf), in row order: a filtered read passes over it */
  firsts: Int32Array;
  values: Float64Array;
  bytes: number;
}

/** Counts over a range, by key id: `values[c][id]` for the family's counted column `c` (read once all are added). */
export class RangeCounts {
  values: Float64Array[];
  /** ids with a row in the range, each once */
  readonly present: number[];
  private seen: Uint8Array;
  private readonly sums: boolean[];

  constructor(
    readonly family: CountsFamily,
    readonly keys: KeyIds,
  ) {
    const size = Math.max(64, keys.size);
    this.values = family.values.map(() => new Float64Array(size));
    this.seen = new Uint8Array(size);
    this.present = [];
    this.sums = family.values.map((v) => v.combine === 'sum');
  }

  /** The rows present as kept apart from these counts (which their reader may add to): ids, and values row by row. */
  keep(): KeptSum {
    const width = this.values.length;
    const ids = Int32Array.from(this.present);
    const values = new Float64Array(ids.length * width);
    for (let i = 0; i < ids.length; i++) for (let c = 0; c < width; c++) values[i * width + c] = this.values[c][ids[i]];
    return { ids, values, bytes: ids.byteLength + values.byteLength };
  }

  /** Adds one row of the range (a day's, or an edge's) under its key id: its values from `values[at]` on. */
  addId(id: number, values: ArrayLike<number>, at = 0): void {
    if (id >= this.seen.length) this.grow(id);
    const first = this.seen[id] === 0;
    if (first) {
      this.seen[id] = 1;
      this.present.push(id);
    }
    for (let c = 0; c < this.sums.length; c++) {
      const column = this.values[c];
      const value = values[at + c];
      column[id] = first ? value : this.sums[c] ? column[id] + value : Math.max(column[id], value);
    }
  }

  /** Adds a row given by its key (an edge's rows, read from the stored rows). */
  add(key: Param[], values: number[]): void {
    this.addId(this.keys.id(key), values);
  }

  /** Makes room for ids up to `id` (the key table grew while the range was read). */
  private grow(id: number): void {
    const size = Math.max(id + 1, this.seen.length * 2);
    this.values = this.values.map((column) => {
      const grown = new Float64Array(size);
      grown.set(column);
      return grown;
    });
    const seen = new Uint8Array(size);
    seen.set(this.seen);
    this.seen = seen;
  }
}

/** A range's counts as kept in the cache: the ids present, and their values row by row. */
interface KeptSum {
  ids: Int32Array;
  values: Float64Array;
  bytes: number;
}

/** Which of a family's days to read. */
export interface CountsRead {
  family: CountsFamily;
  projectId: string;
  fromDay: number;
  toDay: number;
  /** days in the range not to read (they are read from the stored rows instead) */
  skip?: ReadonlySet<number>;
  /** only the rows whose first key column is one of these (say, the search terms on a page) */
  firsts?: Iterable<Param>;
}

/**
 * past this many keys in all (every project's and family's together), the key tables start over (their cached days
 * are read again): they hold the keys' text, which the cache's byte budget does not count
 */
const MAX_KEYS = 1_000_000;

/** Reads families of per-day counts through the day cache. */
export class CountsCache {
  private readonly keyTables = new Map<string, KeyIds>();
  private epochs = 0;

  constructor(
    private readonly cache: DayCache,
    private readonly maxKeys = MAX_KEYS,
  ) {}

  /** A new, empty count over no days, for a range read entirely from stored rows (a rebuild under way). */
  empty(family: CountsFamily, projectId: string): RangeCounts {
    return new RangeCounts(family, this.keyTable(family, projectId));
  }

  /**
   * The family's counts over whole days [fromDay, toDay): cached days as they are when their generation still
   * matches, the others read again. Generations and reloaded days are read in one transaction, so the sum never
   * holds half of a write.
   */
  read(sql: Sql, params: CountsRead): Promise<RangeCounts> {
    return sql.transaction((tx) => this.readIn(tx, params));
  }

  /** As `read`, in the caller's transaction (one that also reads what else the answer needs). */
  async readIn(tx: Sql, params: CountsRead): Promise<RangeCounts> {
    const { family, projectId } = params;
    const keys = this.keyTable(family, projectId);
    const generations = await tx.rows(
      'SELECT "day", "generation" FROM "AnalyticsCountsDay" WHERE "projectId" = ? AND "family" = ? AND "day" >= ? AND "day" < ?',
      [projectId, family.name, params.fromDay, params.toDay],
    );
    // the sum is kept under the range, the days skipped and the first-column values asked for, versioned by the
    // days' generations: a repeated call adds up the keys it holds instead of every day's rows again (80,000 rows for
    // AI misses' 30 days at 10M views, 150,000 search-click rows scanned for a page's terms)
    const skipped = [...(params.skip ?? [])].filter((day) => day >= params.fromDay && day < params.toDay);
    // the values asked for, read once (an iterable may not be read twice)
    const wanted = params.firsts && [...new Set(params.firsts)];
    const firsts = wanted ? JSON.stringify([...wanted].sort()) : '*';
    const range = `${params.fromDay}:${params.toDay}:${skipped.sort((a, b) => a - b).join(',')}:${firsts}`;
    const key = `${projectId}:countsum:${family.name}:${range}`;
    const version = `${keys.epoch}|${generations.map(([day, g]) => `${day}:${g}`).join(',')}`;
    const held = this.cache.get<KeptSum>(key, version);
    if (held) {
      const counts = new RangeCounts(family, keys);
      const width = family.values.length;
      for (let i = 0; i < held.ids.length; i++) counts.addId(held.ids[i], held.values, i * width);
      return counts;
    }
    const counts = await this.addDays(tx, { ...params, wanted }, keys, generations);
    this.cache.set(key, version, counts.keep());
    return counts;
  }

  /** The range's days added up: cached days as they are when their generation matches, the others read again. */
  private async addDays(
    tx: Sql,
    params: CountsRead & { wanted: Param[] | undefined },
    keys: KeyIds,
    generations: unknown[][],
  ): Promise<RangeCounts> {
    const { family, projectId, wanted } = params;
    const counts = new RangeCounts(family, keys);
    const days: (CachedDay | undefined)[] = [];
    const reads: DayRead[] = [];
    for (const [at, generation] of generations) {
      const day = Number(at);
      if (params.skip?.has(day)) continue;
      const key = `${projectId}:counts:${family.name}:${day}`;
      const version = `${generation}:${keys.epoch}`;
      const held = this.cache.get<CachedDay>(key, version);
      const lacks = lacking(held, wanted);
      if (lacks === 'all' || lacks.length) {
        reads.push({ slot: days.length, day, key, version, held, lacks });
        days.push(held);
      } else if (held) days.push(held);
      // else: no rows asked for (an empty page), none held
    }
    for (const read of reads) {
      const day = await readDay(tx, { family, keys, projectId, read });
      this.cache.set(read.key, read.version, day);
      days[read.slot] = day;
    }
    // the mask once every day is loaded: a day read now may have given a first value its number
    const mask = wanted && keys.firstMask(wanted);
    const width = family.values.length;
    for (const { ids, firsts, values } of days as CachedDay[]) {
      if (mask) {
        for (let i = 0; i < ids.length; i++) if (mask[firsts[i]] === 1) counts.addId(ids[i], values, i * width);
      } else for (let i = 0; i < ids.length; i++) counts.addId(ids[i], values, i * width);
    }
    return counts;
  }

  /** keys held in all key tables */
  get keysHeld(): number {
    let keys = 0;
    for (const kept of this.keyTables.values()) keys += kept.size;
    return keys;
  }

  private keyTable(family: CountsFamily, projectId: string): KeyIds {
    const name = `${projectId}\0${family.name}`;
    if (this.keysHeld > this.maxKeys) this.keyTables.clear();
    let table = this.keyTables.get(name);
    if (!table) {
      table = new KeyIds(++this.epochs);
      this.keyTables.set(name, table);
    }
    return table;
  }
}

/** A day to read: every row, or the rows of some first-column values (beside what the cache holds of it). */
interface DayRead {
  slot: number;
  day: number;
  key: string;
  version: string;
  held: CachedDay | undefined;
  lacks: 'all' | Param[];
}

/** What a read wanting `wanted` (every row when undefined) lacks of a cached day. */
function lacking(held: CachedDay | undefined, wanted: Param[] | undefined): 'all' | Param[] {
  if (!held) return wanted ?? 'all';
  const { covers } = held;
  if (covers === 'all') return [];
  return wanted ? wanted.filter((v) => !covers.has(v)) : 'all';
}

/**
 * Reads what a day lacks and returns the day with it. A read for a page's first-column values only (the clicks of
 * its search terms) reads their rows alone: a new process's first page then reads a third of the day, not all of it.
 */
async function readDay(
  tx: Sql,
  params: { family: CountsFamily; keys: KeyIds; projectId: string; read: DayRead },
): Promise<CachedDay> {
  const { family, keys, projectId, read } = params;
  const columns = [...family.keys, ...family.values.map((v) => v.column)].map((c) => `"${c}"`).join(', ');
  const some = read.lacks === 'all' ? [] : read.lacks;
  const only = read.lacks === 'all' ? '' : ` AND "${family.keys[0]}" IN (${some.map(() => '?').join(', ')})`;
  const rows = await tx.rows(`SELECT ${columns} FROM "${family.table}" WHERE "projectId" = ? AND "day" = ?${only}`, [
    projectId,
    read.day,
    ...some,
  ]);
  // a day read whole replaces what was held of it
  const held = read.lacks === 'all' ? undefined : read.held;
  const before = held?.ids.length ?? 0;
  const width = family.keys.length;
  const counted = family.values.length;
  const ids = new Int32Array(before + rows.length);
  const firsts = new Int32Array(before + rows.length);
  const values = new Float64Array((before + rows.length) * counted);
  if (held) {
    ids.set(held.ids);
    firsts.set(held.firsts);
    values.set(held.values);
  }
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r];
    const i = before + r;
    const id = keys.idOfRow(row, width);
    ids[i] = id;
    firsts[i] = keys.firstOf(id);
    for (let c = 0; c < counted; c++) values[i * counted + c] = Number(row[width + c]);
  }
  const covers =
    read.lacks === 'all' ? 'all' : new Set([...(held ? (held.covers as ReadonlySet<Param>) : []), ...read.lacks]);
  return { covers, ids, firsts, values, bytes: ids.byteLength + firsts.byteLength + values.byteLength };
}

/** A key column's value as SQL returned it: text stays text, numbers (PostgreSQL's int too) become numbers. */
function keyValue(value: unknown): Param {
  return typeof value === 'string' ? value : Number(value);
}

/**
 * Bumps the generation of each given day of a family, in the transaction that changes its counts (a day's first
 * change gives it generation 1).
 */
export async function bumpCountsDays(
  tx: Sql,
  params: { family: Pick<CountsFamily, 'name'>; projectId: string; days: Iterable<number> },
): Promise<void> {
  const days = [...new Set(params.days)];
  if (!days.length) return;
  await tx.insertMany({
    table: 'AnalyticsCountsDay',
    columns: [
      ['projectId', 'text'],
      ['family', 'text'],
      ['day', 'int'],
      ['generation', 'int'],
    ],
    rows: days.map((day) => [params.projectId, params.family.name, day, 1]),
    suffix:
      'ON CONFLICT ("projectId", "family", "day") DO UPDATE SET "generation" = "AnalyticsCountsDay"."generation" + 1',
  });
}

/** After a project's counts of a family were recounted: every day of it gets a new generation. */
export async function bumpAllCountsDays(
  tx: Sql,
  params: { family: Pick<CountsFamily, 'name' | 'table'>; projectId: string },
): Promise<void> {
  const { family, projectId } = params;
  await tx.run(
    'UPDATE "AnalyticsCountsDay" SET "generation" = "generation" + 1 WHERE "projectId" = ? AND "family" = ?',
    [projectId, family.name],
  );
  await tx.run(
    `INSERT INTO "AnalyticsCountsDay" ("projectId", "family", "day", "generation")
     SELECT DISTINCT "projectId", ?, "day", 1 FROM "${family.table}" WHERE "projectId" = ? ON CONFLICT DO NOTHING`,
    [family.name, projectId],
  );
}
