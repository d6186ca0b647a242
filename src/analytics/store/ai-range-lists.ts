import type { Sql } from './sql.js';

/** A list's row in `AnalyticsAiRangeList`: the last good copy, and what the refresh holds back. */
export interface StoredRangeList {
  url: string;
  prefixes: string[] | null;
  creationTime: string | null;
  retrievedAt: number | null;
  pending: string[] | null;
  checkedAt: number;
  error: string | null;
}

const COLUMNS = '"url", "prefixes", "creationTime", "retrievedAt", "pending", "checkedAt", "error"';

/** Every stored list copy (one per URL). */
export async function readRangeLists(sql: Sql): Promise<StoredRangeList[]> {
  const rows = await sql.query<Record<string, string | number | bigint | null>>(
    `SELECT ${COLUMNS} FROM "AnalyticsAiRangeList" ORDER BY "url"`,
  );
  return rows.map((r) => ({
    url: String(r.url),
    prefixes: r.prefixes === null ? null : (JSON.parse(String(r.prefixes)) as string[]),
    creationTime: r.creationTime === null ? null : String(r.creationTime),
    retrievedAt: r.retrievedAt === null ? null : Number(r.retrievedAt),
    pending: r.pending === null ? null : (JSON.parse(String(r.pending)) as string[]),
    checkedAt: Number(r.checkedAt),
    error: r.error === null ? null : String(r.error),
  }));
}

/**
 * Claims the refresh of `url` for this replica: true when no replica attempted it since `retryBefore` and its copy
 * was fetched before `staleBefore` (or never). One conditional update, so of replicas racing exactly one wins.
 */
export async function claimRangeRefresh(
  sql: Sql,
  params: { url: string; now: number; retryBefore: number; staleBefore: number },
): Promise<boolean> {
  const { url, now, retryBefore, staleBefore } = params;
  await sql.run(
    'INSERT INTO "AnalyticsAiRangeList" ("url", "checkedAt") VALUES (?, ?) ON CONFLICT ("url") DO NOTHING',
    [url, 0],
  );
  const won = await sql.query(
    `UPDATE "AnalyticsAiRangeList" SET "checkedAt" = ?
     WHERE "url" = ? AND "checkedAt" <= ? AND ("retrievedAt" IS NULL OR "retrievedAt" <= ?) RETURNING "url"`,
    [now, url, retryBefore, staleBefore],
  );
  return won.length === 1;
}

/** Keeps a new good copy of `url` (and clears what was held back). */
export async function storeRangeList(
  sql: Sql,
  params: { url: string; prefixes: string[]; creationTime: string | null; retrievedAt: number },
): Promise<void> {
  const { url, prefixes, creationTime, retrievedAt } = params;
  await sql.run(
    `INSERT INTO "AnalyticsAiRangeList" (${COLUMNS}) VALUES (?, ?, ?, ?, NULL, ?, NULL)
     ON CONFLICT ("url") DO UPDATE SET "prefixes" = excluded."prefixes", "creationTime" = excluded."creationTime",
       "retrievedAt" = excluded."retrievedAt", "pending" = NULL, "error" = NULL`,
    [url, JSON.stringify(prefixes), creationTime, retrievedAt, retrievedAt],
  );
}

/**
 * Records why an attempt kept the old copy; `pending` is the shrunken list held back for a second sighting (null:
 * none any more, undefined: unchanged, as when the attempt saw no list at all).
 */
export async function refuseRangeList(
  sql: Sql,
  params: { url: string; error: string; pending?: string[] | null },
): Promise<void> {
  const { url, pending } = params;
  // an operator's answer is quoted in some reasons: keep a bounded excerpt
  const error = params.error.length > 300 ? `${params.error.slice(0, 300)}…` : params.error;
  if (pending === undefined)
    await sql.run('UPDATE "AnalyticsAiRangeList" SET "error" = ? WHERE "url" = ?', [error, url]);
  else
    await sql.run('UPDATE "AnalyticsAiRangeList" SET "error" = ?, "pending" = ? WHERE "url" = ?', [
      error,
      pending === null ? null : JSON.stringify(pending),
      url,
    ]);
}
