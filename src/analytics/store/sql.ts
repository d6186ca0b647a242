import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import pg from 'pg';
import type { DatabaseTarget } from '../../db/database-url.js';
import { IDLE_POOL_OPTIONS } from '../../db/connection-pool.js';
import { postgresDictionaryIds, sqliteDictionaryIds, type DictionaryKeys } from './dictionary-ids.js';
import { retryWhileBusy } from './sqlite-busy.js';
import { copyRows } from './copy-binary.js';

export type Param = string | number | bigint | Buffer | null;
export type Row = Record<string, unknown>;
export type ColumnType = 'text' | 'int' | 'bigint' | 'bytes';

/**
 * The analytics module's own connection: the hot paths (batch ingest, folding events into day sets, loading
 * bitmaps) run thousands of statements per request, which Prisma's per-query overhead would dominate. SQL is
 * written once with `?` placeholders and quoted identifiers, valid on both SQLite and PostgreSQL.
 */
export interface Sql {
  provider: DatabaseTarget['provider'];
  query<T = Row>(sql: string, params?: Param[]): Promise<T[]>;
  /**
   * Rows as arrays of column values, in select order: cheaper for large scans. With `types` (one per selected column)
   * PostgreSQL sends them in its binary format, blobs as bytes rather than hex text (see copy-binary.ts); SQLite's
   * are read alike either way.
   */
  rows(sql: string, params?: Param[], types?: readonly ColumnType[]): Promise<unknown[][]>;
  run(sql: string, params?: Param[]): Promise<void>;
  /** multi-row insert; `suffix` e.g. `ON CONFLICT DO NOTHING RETURNING "key"` */
  insertMany<T = Row>(params: {
    table: string;
    columns: [string, ColumnType][];
    rows: Param[][];
    suffix?: string;
  }): Promise<T[]>;
  /**
   * Ids of `keys` in a dictionary table (`id` autoincrement, unique (`projectId`, key column)), inserting the
   * missing ones. Call inside a transaction.
   */
  dictionaryIds(params: DictionaryKeys): Promise<Map<string, number>>;
  /**
   * One transaction holding the given analytics locks (across processes; by default the write lock), run exclusively
   * in this process against every other transaction holding one of them. On SQLite, whose one writer excludes every
   * other, any lock is its write lock.
   */
  transaction<T>(fn: (tx: Sql) => Promise<T>, locks?: readonly AnalyticsLock[]): Promise<T>;
  /**
   * Reads in one snapshot of the database, taking no write lock: every statement of `fn` sees the same committed
   * state (PostgreSQL: a REPEATABLE READ READ ONLY transaction; SQLite: a read transaction on a read-only connection
   * of its own, whose read transaction holds the state until it ends). Inside a transaction or snapshot: that one.
   */
  snapshot<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * Rows per statement of a multi-row insert on SQLite: at 15 columns, the widest, 1,500 parameters, far under its bound
 * of 32,766.
 */
const ROWS_PER_INSERT = 100;

/** values per `IN (…)` list or chunk of a multi-row write: well under SQLite's bound on parameters */
export const IN_CHUNK = 500;

/** `values` in runs of at most IN_CHUNK, in order. */
export function inChunks<T>(values: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < values.length; i += IN_CHUNK) out.push(values.slice(i, i + IN_CHUNK));
  return out;
}

/**
 * The analytics locks. `write` is held by whatever stores raw rows (events, searches, feedback, misses): as every event
 * id is taken under it, events commit in id order, so the events any statement sees are a prefix of the ids, and a
 * fold needs no lock to read them. `derived` is held by whatever writes the derived rows and the fold's watermark (the
 * fold, a rebuild), so a fold runs while batches are stored. A transaction holding both takes `write` first.
 */
export type AnalyticsLock = 'write' | 'derived';

/**
 * PostgreSQL advisory lock ids of the analytics locks (Prisma's migrate lock is 72707369). The derived lock's is also
 * checked by the trigger that guards the fold's watermark (migration `folded_mark_guard`).
 */
const LOCK_IDS: Record<AnalyticsLock, number> = { write: 72707380, derived: 72707381 };

/** Runs async critical sections one at a time. */
class Mutex {
  private tail: Promise<unknown> = Promise.resolve();
  run<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.tail.then(fn, fn);
    this.tail = result.catch(() => undefined);
    return result;
  }
}

export function openSql(target: DatabaseTarget): Sql {
  return target.provider === 'sqlite' ? openSqlite(target.filePath) : openPostgres(target.url);
}

/** A better-sqlite3 connection as a Sql whose statements run directly (the caller serialises and retries them). */
function sqliteStatements(db: Database.Database): Sql {
  const statements = new Map<string, Database.Statement>();
  const prepare = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      if (statements.size > 500) statements.clear();
      statements.set(sql, statement);
    }
    return statement;
  };
  const direct: Sql = {
    provider: 'sqlite',
    async query<T>(text: string, params: Param[] = []) {
      // a cached statement keeps the mode its last user set (rows() turns raw on, dictionary lookups pluck): back to
      // rows as objects
      return prepare(text)
        .pluck(false)
        .raw(false)
        .all(...params) as T[];
    },
    async rows(text, params = []) {
      return prepare(text)
        .raw(true)
        .all(...params) as unknown[][];
    },
    async run(text, params = []) {
      prepare(text).run(...params);
    },
    async insertMany<T>({ table, columns, rows, suffix = '' }: Parameters<Sql['insertMany']>[0]) {
      const names = columns.map(([c]) => `"${c}"`).join(', ');
      const tuple = `(${columns.map(() => '?').join(', ')})`;
      const insert = (n: number) =>
        prepare(`INSERT INTO "${table}" (${names}) VALUES ${new Array(n).fill(tuple).join(', ')} ${suffix}`);
      const out: T[] = [];
      const add = (statement: Database.Statement, params: Param[]) => {
        if (statement.reader) out.push(...(statement.all(...params) as T[]));
        else statement.run(...params);
      };
      // ROWS_PER_INSERT rows a statement: each call into SQLite costs about as much as binding a row's values, so a
      // third of an ingest's inserting goes; the rows left over go one by one, so one statement text serves any count
      const whole = rows.length - (rows.length % ROWS_PER_INSERT);
      if (whole) {
        const many = insert(ROWS_PER_INSERT);
        const params: Param[] = [];
        for (let i = 0; i < whole; i += ROWS_PER_INSERT) {
          params.length = 0;
          for (let r = i; r < i + ROWS_PER_INSERT; r++) for (const value of rows[r]) params.push(value);
          add(many, params);
        }
      }
      if (whole < rows.length) {
        const one = insert(1);
        for (let r = whole; r < rows.length; r++) add(one, rows[r]);
      }
      return out;
    },
    dictionaryIds: async (params) => sqliteDictionaryIds(prepare, params),
    transaction: (fn) => fn(direct),
    snapshot: (fn) => fn(direct),
    close: async () => undefined,
  };
  return direct;
}

/** Pages of write-ahead log (4 KiB each) after which a commit copies them into the database file. */
const WAL_CHECKPOINT_PAGES = 20_000;

/** How much of the database file the read connection maps (SQLite caps it at its build's limit, 2 GiB here). */
const READ_MAP_BYTES = 2 ** 31;

/**
 * Snapshots on SQLite: a read-only connection of their own, so a report neither waits for this process's writes nor
 * holds them up (in WAL mode a reader keeps its state while commits go on).
 */
function sqliteSnapshots(filePath: string): Pick<Sql, 'snapshot' | 'close'> {
  let db: Database.Database | undefined;
  let reads: Sql | undefined;
  const mutex = new Mutex();
  return {
    snapshot: (fn) =>
      mutex.run(async () => {
        if (!db) {
          db = new Database(filePath, { readonly: true, timeout: 0 });
          // reports read tens of megabytes of day sets on a first call: mapped, SQLite reads them in place rather
          // than copying each page through its cache (a tenth off those calls at 10M views, for a few tens of MiB of
          // resident file pages). Read-only; nothing shrinks the file under a read.
          db.pragma(`mmap_size = ${READ_MAP_BYTES}`);
        }
        reads ??= sqliteStatements(db);
        const direct = reads;
        db.prepare('BEGIN').run();
        // the first read starts the read transaction and may find the log being reset by a checkpoint: only it can be
        // busy, and it is retried whole; from then on the state is held until COMMIT
        let first = true;
        const retried = <T>(statement: () => Promise<T>) =>
          first ? retryWhileBusy(statement).finally(() => (first = false)) : statement();
        const tx: Sql = {
          ...direct,
          query: (text, params) => retried(() => direct.query(text, params)),
          rows: (text, params, types) => retried(() => direct.rows(text, params, types)),
          transaction: (inner) => inner(tx),
          snapshot: (inner) => inner(tx),
        };
        try {
          return await fn(tx);
        } finally {
          if (db.inTransaction) db.prepare('COMMIT').run();
        }
      }),
    close: () => mutex.run(async () => void db?.close()),
  };
}

function openSqlite(filePath: string): Sql {
  // no synchronous busy wait: see retryWhileBusy
  const db = new Database(filePath, { timeout: 0 });
  // The file is in WAL mode (set by the migrations, src/db/migrate-sqlite.ts). Ingest rewrites the same pages in
  // batch after batch: checkpointed every 80 MB of log rather than SQLite's 4 MB, each page goes to the database
  // file once per checkpoint instead of once per commit.
  db.pragma(`wal_autocheckpoint = ${WAL_CHECKPOINT_PAGES}`);
  // the visitor index takes random inserts (hashes); SQLite's default 2 MB page cache would thrash on it (96 MB: the index of 1M visitors)
  db.pragma('cache_size = -98304');
  const direct = sqliteStatements(db);
  const snapshots = sqliteSnapshots(filePath);
  const mutex = new Mutex();
  // One connection: statements outside a transaction wait for it, so they never see its uncommitted writes.
  return {
    provider: 'sqlite',
    query: (text, params) => mutex.run(() => retryWhileBusy(() => direct.query(text, params))),
    rows: (text, params, types) => mutex.run(() => retryWhileBusy(() => direct.rows(text, params, types))),
    run: (text, params) => mutex.run(() => retryWhileBusy(() => direct.run(text, params))),
    // several statements each: one transaction, so a retry never repeats half of them
    insertMany: (params) => mutex.run(() => inTransaction(() => direct.insertMany(params))),
    dictionaryIds: (params) => mutex.run(() => inTransaction(() => direct.dictionaryIds(params))),
    transaction: (fn) => mutex.run(() => inTransaction(() => fn(direct))),
    snapshot: snapshots.snapshot,
    async close() {
      await snapshots.close();
      await mutex.run(async () => db.close());
    },
  };

  async function inTransaction<T>(fn: () => Promise<T>): Promise<T> {
    await retryWhileBusy(() => db.prepare('BEGIN IMMEDIATE').run());
    try {
      const result = await fn();
      await retryWhileBusy(() => db.prepare('COMMIT').run());
      return result;
    } catch (err) {
      if (db.inTransaction) db.prepare('ROLLBACK').run();
      throw err;
    }
  }
}

function numbered(text: string): string {
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
}

const statementNames = new Map<string, string>();

/** A prepared statement's name for its text: the same text gets the same name on every connection. */
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) {
    // generated texts vary only by table and columns: a handful, but bound the map all the same
    if (statementNames.size > 200) statementNames.clear();
    name = `scribe_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;
    statementNames.set(text, name);
  }
  return name;
}

const PG_TYPES: Record<ColumnType, string> = { text: 'text[]', int: 'int[]', bigint: 'bigint[]', bytes: 'bytea[]' };

function postgresSql(client: pg.Pool | pg.PoolClient, base: Pick<Sql, 'transaction' | 'snapshot' | 'close'>): Sql {
  return {
    provider: 'postgresql',
    async query<T>(text: string, params: Param[] = []) {
      return (await client.query(numbered(text), params)).rows as T[];
    },
    async rows(text, params = [], types) {
      if (types) return copyRows(client, text, params, types);
      return (await client.query({ text: numbered(text), values: params, rowMode: 'array' })).rows as unknown[][];
    },
    async run(text, params = []) {
      await client.query(numbered(text), params);
    },
    async insertMany<T>({ table, columns, rows, suffix = '' }: Parameters<Sql['insertMany']>[0]) {
      if (!rows.length) return [];
      // one statement for the whole batch: columns travel as arrays and are unnested server-side
      const arrays = columns.map((_, i) => rows.map((r) => (typeof r[i] === 'bigint' ? String(r[i]) : r[i])));
      const names = columns.map(([c]) => `"${c}"`).join(', ');
      const unnest = columns.map(([, type], i) => `$${i + 1}::${PG_TYPES[type]}`).join(', ');
      const text = `INSERT INTO "${table}" (${names}) SELECT * FROM unnest(${unnest}) ${suffix}`;
      // named, so each connection parses and plans it once: its rows come from unnest, never from a scan of the table,
      // so the generic plan PostgreSQL settles on is as good as one made for the values
      const result = await client.query({ name: statementName(text), text, values: arrays });
      return result.rows as T[];
    },
    dictionaryIds: (params) =>
      postgresDictionaryIds(
        async (text, values) => (await client.query({ name: statementName(text), text, values })).rows,
        params,
      ),
    ...base,
  };
}

function openPostgres(url: string): Sql {
  // idle connections kept for minutes (db/connection-pool.ts); the fold's minute schedule keeps one in use
  const pool = new pg.Pool({ connectionString: url, max: 4, ...IDLE_POOL_OPTIONS });
  // a dropped database or restarted server surfaces on the next query; an idle client's error must not crash us
  pool.on('error', () => undefined);
  const mutexes: Record<AnalyticsLock, Mutex> = { write: new Mutex(), derived: new Mutex() };
  /** Runs `fn` on one pooled client inside the transaction `begin` opens, committed or rolled back. */
  const inClient = async <T>(begin: string, fn: (tx: Sql) => Promise<T>): Promise<T> => {
    const client = await pool.connect();
    try {
      await client.query(begin);
      const tx: Sql = postgresSql(client, {
        transaction: (inner) => inner(tx),
        snapshot: (inner) => inner(tx),
        close: async () => undefined,
      });
      const result = await fn(tx);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  };
  const base: Pick<Sql, 'transaction' | 'snapshot' | 'close'> = {
    transaction<T>(fn: (tx: Sql) => Promise<T>, locks: readonly AnalyticsLock[] = ['write']) {
      const held = (['write', 'derived'] as const).filter((lock) => locks.includes(lock));
      // one round trip: a commit waits for each, and the event loop answering requests delays every answer
      const begin = ['BEGIN', ...held.map((lock) => `SELECT pg_advisory_xact_lock(${LOCK_IDS[lock]})`)].join('; ');
      // this process's mutexes in the locks' order, so no pooled client waits on a lock another of ours holds
      return held.reduceRight<() => Promise<T>>(
        (next, lock) => () => mutexes[lock].run(next),
        () => inClient(begin, fn),
      )();
    },
    snapshot: (fn) => inClient('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY', fn),
    close: () => pool.end(),
  };
  return postgresSql(pool, base);
}
