import type { Sql } from './sql.js';
import type { Dictionaries } from './dictionaries.js';

/** Agent name prefix of views whose AI user agent came from outside its operator's published ranges (stored as bots). */
export const UNVERIFIED_PREFIX = 'unverified ';

/** Agent name prefix of a human's view when an AI assistant's answer sent the reader: `via <assistant>`. */
export const VIA_PREFIX = 'via ';

/** A page view ready to store: classified, its visitor hashed, its path normalised. */
export interface NewEvent {
  ts: number;
  path: string;
  /** null for other bots: they are kept, but not as visitors */
  visitorHash: string | null;
  kind: number;
  agent: string | null;
  referrer: string | null;
  /** idempotency key; an event whose key was stored before is a duplicate */
  key: string | null;
  /** AI views: VERIFICATION.verified or VERIFICATION.unverifiable; absent (null) for humans and bots */
  verification?: number | null;
}

/**
 * Stored values of `AnalyticsEvent.verification` (see prisma/models/analytics.prisma): `verified` is by the
 * operator's published addresses (and, before the method was kept, by reverse DNS too).
 */
export const VERIFICATION = { verified: 1, unverifiable: 2, reverseDns: 3, signature: 4 } as const;

/** Whether a stored verification says the view was verified, by any method. */
export const isVerified = (v: number | null | undefined) =>
  v === VERIFICATION.verified || v === VERIFICATION.reverseDns || v === VERIFICATION.signature;

/**
 * Stores events in one transaction, numbering new paths and visitors; returns the indexes of those skipped as
 * duplicates of an earlier idempotency key.
 */
export async function insertEvents(params: {
  sql: Sql;
  dictionaries: Dictionaries;
  projectId: string;
  events: NewEvent[];
}): Promise<Set<number>> {
  const { dictionaries, projectId } = params;
  return claimedTransaction(params, async (tx, fresh, visitorIds) => {
    const pageIds = await dictionaries.pageIds(
      tx,
      projectId,
      fresh.map((e) => e.path),
    );
    await tx.insertMany({
      table: 'AnalyticsEvent',
      columns: [
        ['projectId', 'text'],
        ['ts', 'bigint'],
        ['pageId', 'int'],
        ['visitorId', 'int'],
        ['kind', 'int'],
        ['agent', 'text'],
        ['referrer', 'text'],
        ['verification', 'int'],
      ],
      rows: fresh.map((e, i) => [
        projectId,
        e.ts,
        pageIds.get(e.path)!,
        visitorIds[i],
        e.kind,
        e.agent,
        e.referrer,
        e.verification ?? null,
      ]),
    });
  });
}

/**
 * One ingest transaction, wherever the views go: claims the events' idempotency keys, numbers the fresh events'
 * visitors (the dictionary the embedded bitmaps and ClickHouse both count by), and hands both to `write`, which
 * stores the fresh events. Returns the indexes of duplicates of earlier keys. A failure drops the dictionary ids
 * cached inside the transaction: rolled back, they would point nowhere.
 */
export async function claimedTransaction(
  params: { sql: Sql; dictionaries: Dictionaries; projectId: string; events: NewEvent[] },
  /** `visitorIds[i]`: the id of `fresh[i]`'s visitor (null for none) */
  write: (tx: Sql, fresh: NewEvent[], visitorIds: (number | null)[]) => Promise<void>,
): Promise<Set<number>> {
  const { sql, dictionaries, projectId, events } = params;
  try {
    return await sql.transaction(async (tx) => {
      const duplicates = await claimKeys(tx, projectId, events);
      const fresh = events.filter((_, i) => !duplicates.has(i));
      const visitorIds = await dictionaries.visitorIds(
        tx,
        projectId,
        fresh.map((e) => e.visitorHash),
      );
      await write(tx, fresh, visitorIds);
      return duplicates;
    });
  } catch (err) {
    dictionaries.forget(projectId);
    throw err;
  }
}

/** Claims the events' idempotency keys; returns the indexes of events whose key was claimed before (duplicates). */
export async function claimKeys(tx: Sql, projectId: string, events: NewEvent[]): Promise<Set<number>> {
  const duplicates = new Set<number>();
  const keyed = events.map((e, i) => [e.key, i] as const).filter((k): k is [string, number] => k[0] !== null);
  if (!keyed.length) return duplicates;
  const claimed = await tx.insertMany<{ key: string }>({
    table: 'AnalyticsEventKey',
    columns: [
      ['projectId', 'text'],
      ['key', 'text'],
    ],
    rows: keyed.map(([key]) => [projectId, key]),
    suffix: 'ON CONFLICT DO NOTHING RETURNING "key"',
  });
  const fresh = new Set(claimed.map((r) => r.key));
  for (const [key, i] of keyed) {
    if (fresh.has(key)) fresh.delete(key);
    else duplicates.add(i);
  }
  return duplicates;
}
