import type { Param, Sql } from './sql.js';

/**
 * Per-day counts (AI misses, searches, result clicks, feedback) read over a range of whole days: one GROUP BY over the
 * family's per-day table, whose rows the writes keep in their own transaction. Plain SQL: a month of them is read
 * and summed by the database faster than a cache of decoded days could be checked and filled on a first call.
 */

/** A family of per-day counts: rows named by key columns within a day, with counted columns. */
export interface CountsFamily {
  name: string;
  table: string;
  /** the columns naming a row within a day, as SQL returns them (text or int) */
  keys: readonly string[];
  /** the counted columns, and how two days' values combine */
  values: readonly { column: string; combine: 'sum' | 'max' }[];
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

/** The family's counts over the whole days [fromDay, toDay), in the caller's transaction or snapshot. */
export async function readDayCounts(sql: Sql, params: CountsRead): Promise<RangeCounts> {
  const { family, projectId, fromDay, toDay } = params;
  const counts = new RangeCounts(family);
  const skipped = [...(params.skip ?? [])].filter((day) => day >= fromDay && day < toDay);
  const firsts = params.firsts && [...new Set(params.firsts)];
  if (firsts?.length === 0) return counts;
  const keys = family.keys.map((c) => `"${c}"`).join(', ');
  const values = family.values.map((v) => `${v.combine === 'sum' ? 'SUM' : 'MAX'}("${v.column}")`).join(', ');
  const where = ['"projectId" = ?', '"day" >= ?', '"day" < ?'];
  if (skipped.length) where.push(`"day" NOT IN (${skipped.map(() => '?').join(', ')})`);
  if (firsts) where.push(`"${family.keys[0]}" IN (${firsts.map(() => '?').join(', ')})`);
  const rows = await sql.rows(
    `SELECT ${keys}, ${values} FROM "${family.table}" WHERE ${where.join(' AND ')} GROUP BY ${keys}`,
    [projectId, fromDay, toDay, ...skipped, ...(firsts ?? [])],
  );
  const width = family.keys.length;
  const row = new Float64Array(family.values.length);
  for (const r of rows) {
    for (let c = 0; c < row.length; c++) row[c] = Number(r[width + c]);
    counts.addId(counts.keys.idOfRow(r, width), row);
  }
  return counts;
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
    }
    return id;
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

/** Counts over a range, by key id: `values[c][id]` for the family's counted column `c` (read once all are added). */
export class RangeCounts {
  values: Float64Array[];
  /** ids with a row in the range, each once */
  readonly present: number[];
  private seen: Uint8Array;
  private readonly sums: boolean[];

  readonly keys = new KeyIds();

  /** About what it holds, for the analytics cache's byte budget when a report keeps it. */
  get bytes(): number {
    return 256 + this.present.length * 128;
  }

  constructor(readonly family: CountsFamily) {
    const { keys } = this;
    const size = Math.max(64, keys.size);
    this.values = family.values.map(() => new Float64Array(size));
    this.seen = new Uint8Array(size);
    this.present = [];
    this.sums = family.values.map((v) => v.combine === 'sum');
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

/** A key column's value as SQL returned it: text stays text, numbers (PostgreSQL's int too) become numbers. */
function keyValue(value: unknown): Param {
  return typeof value === 'string' ? value : Number(value);
}
