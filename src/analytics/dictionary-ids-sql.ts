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
