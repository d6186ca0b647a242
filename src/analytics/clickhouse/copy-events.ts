import type { ClickHouseClient } from '@clickhouse/client';
import type { Sql } from '../store/sql.js';
import { PAGE_VIEWS } from './clickhouse-schema.js';
import { queryRows } from './clickhouse-client.js';
import { insertViews } from './ship-outbox.js';

/** Events copied per insert. */
export const COPY_CHUNK = 20_000;

export interface CopyProgress {
  projectId: string;
  done: number;
  total: number;
}

export interface CopyOutcome {
  projectId: string;
  copied: number;
  /** raw events of the project in the primary database */
  primary: number;
  /** page views of the project in ClickHouse after the copy */
  clickhouse: number;
}

const cursorName = (projectId: string) => `clickhouse-copy:${projectId}`;

/**
 * Copies one project's raw events from the primary database into ClickHouse, in id order, a chunk per insert. After
 * each chunk the last copied id is kept in `AnalyticsState`, so an interrupted copy resumes after it; a chunk that
 * was inserted but not yet recorded is sent again as the same rows under the same deduplication token, which
 * ClickHouse drops. Ends by counting the project's views on both sides.
 */
export async function copyProjectEvents(params: {
  sql: Sql;
  client: ClickHouseClient;
  database: string;
  projectId: string;
  chunk?: number;
  onProgress?: (p: CopyProgress) => void;
}): Promise<CopyOutcome> {
  const { sql, client, database, projectId, chunk = COPY_CHUNK, onProgress } = params;
  const [state] = await sql.query<{ value: unknown }>('SELECT "value" FROM "AnalyticsState" WHERE "name" = ?', [
    cursorName(projectId),
  ]);
  let after = BigInt((state?.value as bigint | number | string | undefined) ?? 0);
  const count = async (where: string, args: (string | bigint)[]) =>
    Number(
      (await sql.query<{ n: unknown }>(`SELECT COUNT(*) AS "n" FROM "AnalyticsEvent" WHERE ${where}`, args))[0]?.n,
    );
  const primary = await count('"projectId" = ?', [projectId]);
  let done = primary - (await count('"projectId" = ? AND "id" > ?', [projectId, after]));
  let copied = 0;
  onProgress?.({ projectId, done, total: primary });
  for (;;) {
    const rows = await sql.rows(
      `SELECT e."projectId", e."ts", p."path", e."visitorId", e."kind", e."agent", e."referrer", e."verification", e."id"
       FROM "AnalyticsEvent" e JOIN "AnalyticsPage" p ON p."id" = e."pageId"
       WHERE e."projectId" = ? AND e."id" > ? ORDER BY e."id" LIMIT ?`,
      [projectId, after, chunk],
    );
    if (!rows.length) break;
    // the id comes last: insertViews reads the columns before it
    const first = BigInt(rows[0]![8] as bigint);
    const last = BigInt(rows.at(-1)![8] as bigint);
    await insertViews(client, database, rows, `copy:${projectId}:${first}-${last}`);
    await sql.run(
      'INSERT INTO "AnalyticsState" ("name", "value") VALUES (?, ?) ON CONFLICT ("name") DO UPDATE SET "value" = excluded."value"',
      [cursorName(projectId), last],
    );
    after = last;
    done += rows.length;
    copied += rows.length;
    onProgress?.({ projectId, done, total: primary });
  }
  const [{ n }] = await queryRows<{ n: string | number }>(
    client,
    `SELECT count() AS n FROM ${database}.${PAGE_VIEWS} WHERE project = {project:String}`,
    { project: projectId },
  );
  return { projectId, copied, primary, clickhouse: Number(n) };
}

/** Projects with raw events in the primary database. */
export async function projectsWithEvents(sql: Sql): Promise<string[]> {
  const rows = await sql.query<{ projectId: string }>(
    'SELECT DISTINCT "projectId" FROM "AnalyticsEvent" ORDER BY "projectId"',
  );
  return rows.map((r) => r.projectId);
}
