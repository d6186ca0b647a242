import type { Sql } from './sql.js';

export interface RobotsFetch {
  host: string;
  checkedAt: number;
  status: number | null;
  error: string | null;
}

/**
 * Claims this hour's fetch of a host's robots.txt for this replica: true when no replica attempted it since
 * `retryBefore`. One conditional update, so of replicas racing exactly one wins.
 */
export async function claimRobotsFetch(
  sql: Sql,
  params: { projectId: string; host: string; now: number; retryBefore: number },
): Promise<boolean> {
  const { projectId, host, now, retryBefore } = params;
  await sql.run(
    `INSERT INTO "AnalyticsRobotsFetch" ("projectId", "host", "checkedAt") VALUES (?, ?, ?)
     ON CONFLICT ("projectId", "host") DO NOTHING`,
    [projectId, host, 0],
  );
  const won = await sql.query(
    `UPDATE "AnalyticsRobotsFetch" SET "checkedAt" = ? WHERE "projectId" = ? AND "host" = ? AND "checkedAt" <= ?
     RETURNING "host"`,
    [now, projectId, host, retryBefore],
  );
  return won.length === 1;
}

/** What the claimed attempt got: a status, or why none. */
export async function recordRobotsFetch(
  sql: Sql,
  params: { projectId: string; host: string; status: number | null; error: string | null },
): Promise<void> {
  const error = params.error && params.error.length > 300 ? `${params.error.slice(0, 300)}…` : params.error;
  await sql.run('UPDATE "AnalyticsRobotsFetch" SET "status" = ?, "error" = ? WHERE "projectId" = ? AND "host" = ?', [
    params.status,
    error,
    params.projectId,
    params.host,
  ]);
}

export async function robotsFetches(sql: Sql, projectId: string): Promise<RobotsFetch[]> {
  const rows = await sql.query<Record<string, unknown>>(
    'SELECT "host", "checkedAt", "status", "error" FROM "AnalyticsRobotsFetch" WHERE "projectId" = ? ORDER BY "host"',
    [projectId],
  );
  return rows.map((r) => ({
    host: String(r.host),
    checkedAt: Number(r.checkedAt),
    status: r.status === null ? null : Number(r.status),
    error: r.error === null ? null : String(r.error),
  }));
}
