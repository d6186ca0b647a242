import type { Sql } from './sql.js';
import { deriveEvents, EVENT_COLUMNS, type EventRow } from './derive-events.js';
import { ROLLUPS } from './rollups/all-rollups.js';
import type { Rollup } from './rollups/rollup.js';
import { FOLDED, readMarks, writeMarks } from './rollups/rollup-marks.js';

const FOLD_CHUNK = 200_000;

/**
 * Folds raw events after the watermark into the day sets, view counts and rollups, chunk by chunk, each chunk in the
 * transaction that advances the watermark; returns how many events it read. Raw events are the source of truth: as
 * each chunk is derived in the transaction that advances the watermark past it, the derived tables always equal a
 * function of a prefix of the raw events — never half of a batch. A rollup added to a database that holds folded
 * events is filled by `scribe analytics rebuild`.
 */
export async function foldEvents(sql: Sql, options: { rollups?: Rollup[]; chunk?: number } = {}): Promise<number> {
  const { rollups = ROLLUPS, chunk = FOLD_CHUNK } = options;
  // the common case, nothing new, costs one read and no lock
  if (!(await hasUnfoldedEvents(sql))) return 0;
  let total = 0;
  for (;;) {
    // under the derived lock alone: the events a statement reads are a prefix of the ids (see AnalyticsLock), so
    // batches go on being stored while a chunk is derived
    const n = await sql.transaction((tx) => foldChunk(tx, rollups, chunk), ['derived']);
    total += n;
    if (n < chunk) return total;
  }
}

/** Whether events were stored after the fold's watermark: one read, no lock. */
export async function hasUnfoldedEvents(sql: Sql): Promise<boolean> {
  const [pending] = await sql.query<{ mark: unknown; top: unknown }>(
    'SELECT (SELECT "value" FROM "AnalyticsState" WHERE "name" = ?) AS mark, (SELECT MAX("id") FROM "AnalyticsEvent") AS top',
    [FOLDED],
  );
  return pending.top !== null && Number(pending.top) > Number(pending.mark ?? 0);
}

async function foldChunk(tx: Sql, rollups: Rollup[], chunk: number): Promise<number> {
  const mark = (await readMarks(tx, [FOLDED])).get(FOLDED)!;
  const rows = (await tx.rows(`SELECT ${EVENT_COLUMNS} FROM "AnalyticsEvent" WHERE "id" > ? ORDER BY "id" LIMIT ?`, [
    mark,
    chunk,
  ])) as EventRow[];
  if (!rows.length) return 0;
  await deriveEvents(tx, rows, rollups);
  await writeMarks(tx, [[FOLDED, Number(rows[rows.length - 1][0])]]);
  return rows.length;
}
