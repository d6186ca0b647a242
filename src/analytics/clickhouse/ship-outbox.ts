import { randomUUID } from 'node:crypto';
import type { ClickHouseClient } from '@clickhouse/client';
import type { Sql } from '../store/sql.js';
import { PAGE_VIEWS } from './clickhouse-schema.js';

/** Most page views in one insert (ids in one batch's window): one ClickHouse part per batch and month, so large. */
export const SHIP_BATCH = 10_000;

/**
 * Moves outbox page views into ClickHouse, one batch of one project at a time: the batch is first named in the
 * primary database (its token), then inserted with that token as `insert_deduplication_token`, then deleted. A
 * process killed after naming or after inserting resends the same rows in the same order under the same token at
 * its next round, and ClickHouse drops the repeat, so nothing is lost or counted twice. A batch already named goes
 * before any new one. Returns how many page views it moved.
 */
export async function shipOutbox(params: {
  sql: Sql;
  client: ClickHouseClient;
  database: string;
  batchSize?: number;
  /** stop after this many batches (default: until the outbox is empty) */
  maxBatches?: number;
  /**
   * Where the last batch named began, kept by the caller from one shipment to the next: every unnamed view is
   * after it, because views get their ids under the analytics write lock, so in the order they commit (on both
   * databases, whichever replica writes them). The next batch is looked for after it: shipped rows are deleted,
   * and on PostgreSQL a walk from the lowest id crosses every dead row until a vacuum (about 0.5 s a shipment, so a
   * report, after a 10M burst). A new process starts at 0; a search that finds nothing waiting moves it past every
   * id handed out so far.
   */
  cursor?: { id: bigint };
  /** told the rows of each batch once they have left the outbox */
  onShipped?: (rows: number) => void;
}): Promise<number> {
  const { sql, client, database, batchSize = SHIP_BATCH, maxBatches = Number.POSITIVE_INFINITY } = params;
  let moved = 0;
  const after = params.cursor ?? { id: 0n };
  for (let batches = 0; batches < maxBatches; batches++) {
    const token = (await namedBatch(sql)) ?? (await nameBatch(sql, batchSize, after));
    if (!token) break;
    const rows = await sql.rows(
      'SELECT "projectId", "ts", "path", "visitor", "kind", "agent", "referrer", "verification" FROM "AnalyticsOutbox" WHERE "batch" = ? ORDER BY "id"',
      [token],
    );
    await insertViews(client, database, rows, token);
    await sql.run('DELETE FROM "AnalyticsOutbox" WHERE "batch" = ?', [token]);
    moved += rows.length;
    params.onShipped?.(rows.length);
  }
  return moved;
}

/**
 * A batch named but not yet deleted (a process stopped between naming and deleting it, or another replica is
 * shipping it): sent again under its token before anything new is named. Found through the batch index, which
 * holds no name at all in the usual case; asked in id order, PostgreSQL walked the primary key over every waiting
 * row instead (666 ms a round with 5.6M waiting, from a misestimate of how many are named).
 */
async function namedBatch(sql: Sql): Promise<string | undefined> {
  const [row] = await sql.query<{ batch: string }>(
    'SELECT "batch" FROM "AnalyticsOutbox" WHERE "batch" IS NOT NULL ORDER BY "batch" LIMIT 1',
  );
  return row?.batch;
}

/**
 * "Not named yet", written so no index can serve it: the rows are then found by id, from where the last batch
 * began. As `"batch" IS NULL`, PostgreSQL's statistics of this fast-churning table (most rows named a moment ago)
 * led it to read every unnamed row through the batch index and sort them: 1.4 s a round with 7M waiting.
 */
const UNNAMED = `COALESCE("batch", '') = ''`;

/**
 * Names the next batch: the oldest waiting view after `after`, and the views of its project among the next
 * `batchSize` ids (one project: one shard). Other projects' views in that window stay for later batches, so a batch
 * of interleaved projects is smaller than `batchSize`. Both statements read the primary key by range: a window of
 * ids, not "the first so many of this project", which PostgreSQL planned as a scan of every waiting row.
 */
async function nameBatch(sql: Sql, batchSize: number, after: { id: bigint }): Promise<string | undefined> {
  return sql.transaction(async (tx) => {
    const [first] = await tx.query<{ id: number | string; projectId: string }>(
      `SELECT "id", "projectId" FROM "AnalyticsOutbox" WHERE ${UNNAMED} AND "id" > ? ORDER BY "id" LIMIT 1`,
      [after.id],
    );
    if (!first) {
      // nothing waits: the next search can start past every id given out so far, not again from where the last
      // batch began (in a new process: from 0, through every row a burst left dead until a vacuum)
      after.id = await highestIssuedId(tx);
      return undefined;
    }
    const from = BigInt(first.id);
    const to = from + BigInt(batchSize) - 1n;
    // stored with the rows, so a resend uses the same token; random, because ids restart with a new primary
    // database and one ClickHouse may outlive it (or serve a test database beside it)
    const token = `outbox:${first.projectId}:${from}-${to}:${randomUUID()}`;
    await tx.run(
      `UPDATE "AnalyticsOutbox" SET "batch" = ? WHERE "id" BETWEEN ? AND ? AND ${UNNAMED} AND "projectId" = ?`,
      [token, from, to, first.projectId],
    );
    // another project's views in the window stay unnamed: the next round starts after first, not past the window
    after.id = from;
    return token;
  });
}

/**
 * The highest id the outbox has handed out. Read under the analytics write lock, where no view is still being
 * written, so every id up to it belongs to a view already stored (or to a write rolled back). On PostgreSQL from the
 * table's sequence: the primary key's highest entries are the rows a shipment has just deleted.
 */
async function highestIssuedId(tx: Sql): Promise<bigint> {
  const [row] = await tx.query<{ id: number | string | null }>(
    tx.provider === 'postgresql'
      ? `SELECT pg_sequence_last_value(pg_get_serial_sequence('"AnalyticsOutbox"', 'id')) AS "id"`
      : `SELECT "seq" AS "id" FROM "sqlite_sequence" WHERE "name" = 'AnalyticsOutbox'`,
  );
  return BigInt(row?.id ?? 0);
}

/**
 * Clears the rows shipments deleted from the outbox's table and indexes (PostgreSQL only: SQLite removes a deleted
 * row from its B-trees at once). Until a vacuum, every search of the outbox crosses them: a new process's first
 * shipment, and the batch index each round, after a 10M burst about 0.6 s per report. Autovacuum gets there too,
 * but throttled: minutes after such a burst. It blocks none of the outbox's reads and writes.
 */
export async function vacuumOutbox(sql: Sql): Promise<void> {
  if (sql.provider === 'postgresql') await sql.run('VACUUM "AnalyticsOutbox"');
}

/**
 * Inserts page views, rows of `projectId, ts, path, visitor, kind, agent, referrer, verification` (any further
 * column ignored), under a deduplication token: the same rows sent again in the same order under the same token (a
 * resend after a crash) are dropped.
 */
export async function insertViews(client: ClickHouseClient, database: string, rows: unknown[][], token: string) {
  await client.insert({
    table: `${database}.${PAGE_VIEWS}`,
    values: rows.map(([project, ts, path, visitor, kind, agent, referrer, verification]) => {
      const iso = new Date(Number(ts)).toISOString();
      return {
        project,
        day: iso.slice(0, 10),
        ts: iso.slice(0, 23).replace('T', ' '),
        path,
        // its number in the primary's visitor dictionary (write-outbox.ts): text in the outbox, not in AnalyticsEvent
        visitor: visitor === null ? null : String(visitor),
        kind: Number(kind),
        agent,
        referrer,
        verification: verification === null ? null : Number(verification),
      };
    }),
    format: 'JSONEachRow',
    // the token also keys the blocks the materialized views derive, so a dropped resend adds nothing there
    clickhouse_settings: {
      insert_deduplicate: 1,
      insert_deduplication_token: token,
      deduplicate_blocks_in_dependent_materialized_views: 1,
    },
  });
}
