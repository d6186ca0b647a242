import type { Sql } from '../sql.js';

/**
 * The bookkeeping rows of derived state in `AnalyticsState`: the fold's watermark (`folded`, the last raw event id
 * in the derived tables), and a mark per project
 * whose derived rows a rebuild is re-deriving (`rebuild:<projectId>`).
 */
export const FOLDED = 'folded';
export const rebuildMark = (projectId: string) => `rebuild:${projectId}`;

/** Values of the named state rows (absent ones are 0). */
export async function readMarks(sql: Sql, names: string[]): Promise<Map<string, number>> {
  const rows = await sql.query<{ name: string; value: unknown }>(
    `SELECT "name", "value" FROM "AnalyticsState" WHERE "name" IN (${names.map(() => '?').join(', ')})`,
    names,
  );
  const marks = new Map(names.map((n) => [n, 0]));
  for (const r of rows) marks.set(r.name, Number(r.value));
  return marks;
}

export async function writeMarks(tx: Sql, marks: [name: string, value: number][]): Promise<void> {
  await tx.insertMany({
    table: 'AnalyticsState',
    columns: [
      ['name', 'text'],
      ['value', 'bigint'],
    ],
    rows: marks,
    suffix: 'ON CONFLICT ("name") DO UPDATE SET "value" = excluded."value"',
  });
}

/**
 * The fold's watermark when a project's reports may read its derived rows (no rebuild of the project is under way),
 * else undefined: the report answers from raw rows, as it did before derived rows existed: slower, never wrong.
 */
export async function derivedMark(sql: Sql, projectId: string): Promise<number | undefined> {
  const marks = await readMarks(sql, [FOLDED, rebuildMark(projectId)]);
  return marks.get(rebuildMark(projectId)) ? undefined : marks.get(FOLDED)!;
}
