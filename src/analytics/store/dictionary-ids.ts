import type Database from 'better-sqlite3';

/**
 * Numbering keys in a dictionary table (`id` autoincrement, unique (`projectId`, key column)): the ids of `keys`,
 * inserting the missing ones, on each database the way that is fastest there. Called inside a transaction.
 */
export interface DictionaryKeys {
  table: string;
  column: string;
  projectId: string;
  keys: string[];
}

/** SQLite, in process: one indexed probe per key beats building IN lists. */
export async function sqliteDictionaryIds(
  prepare: (sql: string) => Database.Statement,
  { table, column, projectId, keys }: DictionaryKeys,
): Promise<Map<string, number>> {
  const select = prepare(`SELECT "id" FROM "${table}" WHERE "projectId" = ? AND "${column}" = ?`).pluck();
  const insert = prepare(`INSERT INTO "${table}" ("projectId", "${column}") VALUES (?, ?)`);
  const ids = new Map<string, number>();
  for (const key of keys) {
    const id = select.get(projectId, key) as number | undefined;
    ids.set(key, id ?? Number(insert.run(projectId, key).lastInsertRowid));
  }
  return ids;
}

/** PostgreSQL: one round trip per 5,000 keys, `run` executing the statement as a named (prepared) one. */
export async function postgresDictionaryIds(
  run: (text: string, values: unknown[]) => Promise<unknown[]>,
  { table, column, projectId, keys }: DictionaryKeys,
): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  const text = dictionaryIdsStatement(table, column);
  for (let i = 0; i < keys.length; i += 5000) {
    const found = await run(text, [projectId, keys.slice(i, i + 5000)]);
    for (const r of found as { id: number; key: string }[]) ids.set(r.key, Number(r.id));
  }
  return ids;
}

/**
 * The PostgreSQL statement behind `Sql.dictionaryIds` for one chunk of keys ($1 the project, $2 the keys): the ids
 * of the keys already numbered and of those it adds, in the order given, in one round trip. The caller's
 * transaction holds the write lock, so no other writer adds a key meanwhile.
 *
 * Each key is looked up on its own, by the unique (projectId, key) index. A lookup of the whole array (`= ANY`) is
 * planned from table statistics, and while those are missing or stale — a new or fast-growing table, such as the
 * visitors under a burst of tracker events — the plan reads every key of the project to find a few.
 */
export function dictionaryIdsStatement(table: string, column: string): string {
  return `WITH "keys" AS (
      SELECT k.key, k.n, (SELECT t."id" FROM "${table}" t WHERE t."projectId" = $1 AND t."${column}" = k.key) AS id
        FROM unnest($2::text[]) WITH ORDINALITY AS k(key, n)),
    "added" AS (INSERT INTO "${table}" ("projectId", "${column}") SELECT $1, key FROM "keys" WHERE id IS NULL ORDER BY n
      RETURNING "id", "${column}" AS key)
    SELECT "id", key FROM "keys" WHERE id IS NOT NULL UNION ALL SELECT "id", key FROM "added"`;
}
