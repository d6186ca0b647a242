import { Unavailable } from '../../errors.js';
import type { TimeRange } from '../../calendar.js';
import type { PendingView } from './clickhouse-reports.js';
import type { Sql } from '../store/sql.js';
import type { Dictionaries } from '../store/dictionaries.js';
import { claimedTransaction, type NewEvent } from '../store/write-events.js';

/** Seconds a client is told to wait when the outbox is full (ClickHouse has been unreachable for a while). */
export const OUTBOX_FULL_RETRY_SECONDS = 30;

/**
 * Records accepted page views for ClickHouse: their idempotency claims and the views themselves in one transaction
 * of the primary database, so an answered batch is durable whatever ClickHouse is doing. Refuses (503, Retry-After)
 * a batch that would take the outbox past `limit`. Returns the indexes of duplicates of earlier keys.
 *
 * Visitors go to ClickHouse as their ids in the primary's visitor dictionary (`AnalyticsVisitor`, as the embedded
 * store numbers them), not as bits of their hash: ClickHouse keeps a 64-bit bitmap as one 32-bit bitmap per distinct
 * upper half, so hash-derived ids put every visitor in a container of its own and made the merges 16–31× slower
 * (measured on chDB, 3M views); dense ids share containers, and being a numbering of the keyed hashes they never
 * collide.
 */
export async function writeOutbox(params: {
  sql: Sql;
  dictionaries: Dictionaries;
  projectId: string;
  events: NewEvent[];
  /** the outbox's depth as last counted plus what this process added since */
  depth: () => number;
  limit: number;
  /** told how many rows it stored, inside its transaction (so a count of the outbox is before or after both) */
  onStored: (rows: number) => void;
}): Promise<Set<number>> {
  const { projectId, events, depth, limit, onStored } = params;
  if (depth() + events.length > limit) {
    throw new Unavailable(
      `ClickHouse has not taken page views for a while and ${depth()} wait in the outbox (limit ${limit}); try again later`,
      OUTBOX_FULL_RETRY_SECONDS,
    );
  }
  return claimedTransaction(params, async (tx, fresh, visitorIds) => {
    await tx.insertMany({
      table: 'AnalyticsOutbox',
      columns: [
        ['projectId', 'text'],
        ['ts', 'bigint'],
        ['path', 'text'],
        ['visitor', 'text'],
        ['kind', 'int'],
        ['agent', 'text'],
        ['referrer', 'text'],
        ['verification', 'int'],
      ],
      rows: fresh.map((e, i) => [
        projectId,
        e.ts,
        e.path,
        visitorIds[i] === null ? null : String(visitorIds[i]),
        e.kind,
        e.agent,
        e.referrer,
        e.verification ?? null,
      ]),
    });
    onStored(fresh.length);
  });
}

/**
 * Page views waiting in the outbox, at ids from `from` on (a shipment's cursor: none waits below it; see
 * ship-outbox.ts), so the count reads the live rows, not the deleted ones a vacuum has yet to remove.
 */
export async function outboxDepth(sql: Sql, from = 0n): Promise<number> {
  const [row] = await sql.query<{ n: number | string }>(
    'SELECT COUNT(*) AS "n" FROM "AnalyticsOutbox" WHERE "id" >= ?',
    [from],
  );
  return Number(row?.n ?? 0);
}

/**
 * A project's page views of a range waiting in the outbox, as a report adds them to ClickHouse's (see
 * ClickHouseEvents.read), and whether any is in a named batch: one a shipment is sending, which ClickHouse may hold
 * already.
 */
export async function pendingViews(
  sql: Sql,
  projectId: string,
  range: TimeRange,
): Promise<{ views: PendingView[]; named: boolean; lastId: bigint }> {
  const rows = await sql.query<PendingView & { id: number | string; batch: string | null }>(
    'SELECT "id", "ts", "path", "visitor", "kind", "agent", "referrer", "verification", "batch" FROM "AnalyticsOutbox" ' +
      'WHERE "projectId" = ? AND "ts" >= ? AND "ts" < ? ORDER BY "id"',
    [projectId, range.from, range.to],
  );
  const views = rows.map((r) => ({
    ts: Number(r.ts),
    path: r.path,
    visitor: r.visitor,
    kind: Number(r.kind),
    agent: r.agent,
    referrer: r.referrer,
    verification: r.verification === null ? null : Number(r.verification),
  }));
  const lastId = rows.length ? BigInt(rows[rows.length - 1].id) : 0n;
  return { views, named: rows.some((r) => r.batch), lastId };
}

/**
 * Whether the views `pendingViews` read are all still waiting, none named for a shipment: then none of them reached
 * ClickHouse in between, so an answer from ClickHouse read meanwhile plus them counts each view once.
 */
export async function stillPending(
  sql: Sql,
  projectId: string,
  range: TimeRange,
  read: { views: PendingView[]; lastId: bigint },
): Promise<boolean> {
  if (!read.views.length) return true;
  const [row] = await sql.query<{ n: unknown; named: unknown }>(
    `SELECT COUNT(*) AS "n", COUNT(NULLIF("batch", '')) AS "named" FROM "AnalyticsOutbox" ` +
      'WHERE "projectId" = ? AND "ts" >= ? AND "ts" < ? AND "id" <= ?',
    [projectId, range.from, range.to, read.lastId],
  );
  return Number(row.n) === read.views.length && Number(row.named) === 0;
}
