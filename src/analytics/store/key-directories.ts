import type { KnownDirectory } from '../ingest/key-directories.js';
import type { Sql } from './sql.js';

/** Every imported key directory (`scribe ranges import`), as every replica uses it. */
export async function readKeyDirectories(sql: Sql): Promise<KnownDirectory[]> {
  const rows = await sql.query<Record<string, unknown>>(
    'SELECT "url", "operator", "agents", "keys", "retrievedAt" FROM "AnalyticsKeyDirectory" ORDER BY "url"',
  );
  return rows.map((r) => ({
    url: String(r.url),
    operator: String(r.operator),
    agents: JSON.parse(String(r.agents)) as string[],
    keys: JSON.parse(String(r.keys)) as KnownDirectory['keys'],
    retrievedAt: new Date(Number(r.retrievedAt)).toISOString(),
  }));
}

/** Keeps an imported directory unless the copy stored is as new; true when it was kept. */
export async function storeKeyDirectory(
  sql: Sql,
  directory: KnownDirectory & { retrievedMs: number },
): Promise<boolean> {
  const kept = await sql.query(
    `INSERT INTO "AnalyticsKeyDirectory" ("url", "operator", "agents", "keys", "retrievedAt") VALUES (?, ?, ?, ?, ?)
     ON CONFLICT ("url") DO UPDATE SET "operator" = excluded."operator", "agents" = excluded."agents",
       "keys" = excluded."keys", "retrievedAt" = excluded."retrievedAt"
     WHERE "AnalyticsKeyDirectory"."retrievedAt" < excluded."retrievedAt" RETURNING "url"`,
    [
      directory.url,
      directory.operator,
      JSON.stringify(directory.agents),
      JSON.stringify(directory.keys),
      directory.retrievedMs,
    ],
  );
  return kept.length === 1;
}
