import type { Sql } from '../sql.js';

/**
 * The bookkeeping rows of derived state in `AnalyticsState`: the fold's watermark (`folded`, the last raw event id
 * in the day sets and day views), each rollup's own watermark (`rollup:<name>`: a rollup added to a database whose
 * events were folded before it existed starts behind and is caught up in the background), and a mark per project
 * whose derived rows a rebuild is re-deriving (`rebuild:<projectId>`).
 */
export const FOLDED = 'folded';
export const rollupMark = (name: string) => `rollup:${name}`;
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
 * The fold's watermark when a project's reports may read its derived rows — no rebuild of the project is under way
 * and each named rollup has caught up with the fold (`rollups` names event rollups; the day sets need none) — else
 * undefined: the report answers from raw rows, as it did before derived rows existed: slower, never wrong.
 */
export async function derivedMark(
  sql: Sql,
  params: { projectId: string; rollups?: string[] },
): Promise<number | undefined> {
  const names = params.rollups ?? [];
  const marks = await readMarks(sql, [FOLDED, rebuildMark(params.projectId), ...names.map(rollupMark)]);
  if (marks.get(rebuildMark(params.projectId))) return undefined;
  const folded = marks.get(FOLDED)!;
  return names.every((n) => marks.get(rollupMark(n))! >= folded) ? folded : undefined;
}

/** Whether a project's reports may read its derived rows (see derivedMark). */
export async function derivedReady(sql: Sql, params: { projectId: string; rollups?: string[] }): Promise<boolean> {
  return (await derivedMark(sql, params)) !== undefined;
}
