import crypto from 'node:crypto';
import type { Sql } from './sql.js';

export interface RobotsVersion {
  host: string;
  /** the content's SHA-256 (hex): the same content, the same hash (reports key what they judge by it) */
  hash: string;
  content: string;
  firstSeenAt: number;
  lastSeenAt: number;
}

/**
 * Keeps a sighting of a host's robots.txt: the latest version's `lastSeenAt` moves when the content is the same,
 * else a new version starts. One transaction, so concurrent sightings never make two versions of one change.
 */
export async function recordRobotsVersion(
  sql: Sql,
  params: { projectId: string; host: string; content: string; seenAt: number },
): Promise<{ hash: string; outcome: 'new version' | 'same as the version in force' | 'older than the versions held' }> {
  const { projectId, content, seenAt } = params;
  const host = params.host.toLowerCase();
  const hash = crypto.createHash('sha256').update(content).digest('hex');
  return sql.transaction(async (tx) => {
    const [latest] = await tx.query<{ id: unknown; hash: string; firstSeenAt: unknown }>(
      `SELECT "id", "hash", "firstSeenAt" FROM "AnalyticsRobotsVersion" WHERE "projectId" = ? AND "host" = ?
        ORDER BY "firstSeenAt" DESC, "id" DESC LIMIT 1`,
      [projectId, host],
    );
    // an import of an old copy does not rewrite the history it predates
    if (latest && Number(latest.firstSeenAt) > seenAt) return { hash, outcome: 'older than the versions held' };
    if (latest?.hash === hash) {
      await tx.run('UPDATE "AnalyticsRobotsVersion" SET "lastSeenAt" = ? WHERE "id" = ? AND "lastSeenAt" < ?', [
        seenAt,
        Number(latest.id),
        seenAt,
      ]);
      return { hash, outcome: 'same as the version in force' };
    }
    await tx.run(
      `INSERT INTO "AnalyticsRobotsVersion" ("projectId", "host", "hash", "content", "firstSeenAt", "lastSeenAt")
       VALUES (?, ?, ?, ?, ?, ?)`,
      [projectId, host, hash, content, seenAt, seenAt],
    );
    return { hash, outcome: 'new version' };
  });
}

/** Every version of every host of the project, oldest first per host. */
export async function robotsVersions(sql: Sql, projectId: string): Promise<RobotsVersion[]> {
  const rows = await sql.query<Record<string, unknown>>(
    `SELECT "host", "hash", "content", "firstSeenAt", "lastSeenAt" FROM "AnalyticsRobotsVersion"
      WHERE "projectId" = ? ORDER BY "host", "firstSeenAt", "id"`,
    [projectId],
  );
  return rows.map((r) => ({
    host: String(r.host),
    hash: String(r.hash),
    content: String(r.content),
    firstSeenAt: Number(r.firstSeenAt),
    lastSeenAt: Number(r.lastSeenAt),
  }));
}

/** Notes AI agents that asked for /robots.txt (the earliest and latest time each did). */
export async function recordRobotsReaders(
  sql: Sql,
  params: { projectId: string; readers: { agent: string; at: number }[] },
): Promise<void> {
  for (const { agent, at } of params.readers)
    await sql.run(
      `INSERT INTO "AnalyticsRobotsReader" ("projectId", "agent", "firstSeenAt", "lastSeenAt") VALUES (?, ?, ?, ?)
       ON CONFLICT ("projectId", "agent") DO UPDATE SET
         "firstSeenAt" = CASE WHEN excluded."firstSeenAt" < "AnalyticsRobotsReader"."firstSeenAt" THEN excluded."firstSeenAt" ELSE "AnalyticsRobotsReader"."firstSeenAt" END,
         "lastSeenAt" = CASE WHEN excluded."lastSeenAt" > "AnalyticsRobotsReader"."lastSeenAt" THEN excluded."lastSeenAt" ELSE "AnalyticsRobotsReader"."lastSeenAt" END`,
      [params.projectId, agent, at, at],
    );
}

export async function robotsReaders(
  sql: Sql,
  projectId: string,
): Promise<{ agent: string; firstSeenAt: number; lastSeenAt: number }[]> {
  const rows = await sql.query<Record<string, unknown>>(
    'SELECT "agent", "firstSeenAt", "lastSeenAt" FROM "AnalyticsRobotsReader" WHERE "projectId" = ? ORDER BY "agent"',
    [projectId],
  );
  return rows.map((r) => ({
    agent: String(r.agent),
    firstSeenAt: Number(r.firstSeenAt),
    lastSeenAt: Number(r.lastSeenAt),
  }));
}

/** AI views (or spoofed AI user agents') of a page at a time, with its path: what robots.txt rules judge. */
export interface AgentView {
  ts: number;
  path: string;
  kind: number;
  agent: string;
  verification: number | null;
  /** how many such views (one when absent) */
  views?: number;
}
