import type { Sql } from './sql.js';
import { deriveEvents, EVENT_COLUMNS, type EventRow, foldedEvent } from './derive-events.js';
import { ROLLUPS } from './rollups/all-rollups.js';
import type { Rollup } from './rollups/rollup.js';
import { FOLDED, readMarks, rollupMark, writeMarks } from './rollups/rollup-marks.js';

const FOLD_CHUNK = 200_000;
/** smaller than the fold's: a catch-up runs while the service takes traffic, and ingestion waits for its chunks */
const CATCH_UP_CHUNK = 50_000;

/**
 * Folds raw events after the watermark into the day sets, view counts and the rollups that are caught up, chunk by
 * chunk, each chunk in the transaction that advances the watermarks; returns how many events it read.
 */
export async function foldEvents(sql: Sql, options: { rollups?: Rollup[]; chunk?: number } = {}): Promise<number> {
  const { rollups = ROLLUPS, chunk = FOLD_CHUNK } = options;
  // the common case, nothing new, costs one read and no write lock
  const [pending] = await sql.query<{ mark: unknown; top: unknown }>(
    'SELECT (SELECT "value" FROM "AnalyticsState" WHERE "name" = ?) AS mark, (SELECT MAX("id") FROM "AnalyticsEvent") AS top',
    [FOLDED],
  );
  if (pending.top === null || Number(pending.top) <= Number(pending.mark ?? 0)) return 0;
  let total = 0;
  for (;;) {
    const n = await sql.transaction((tx) => foldChunk(tx, rollups, chunk));
    total += n;
    if (n < chunk) return total;
  }
}

async function foldChunk(tx: Sql, rollups: Rollup[], chunk: number): Promise<number> {
  const marks = await readMarks(tx, [FOLDED, ...rollups.map((r) => rollupMark(r.name))]);
  const mark = marks.get(FOLDED)!;
  const rows = (await tx.rows(`SELECT ${EVENT_COLUMNS} FROM "AnalyticsEvent" WHERE "id" > ? ORDER BY "id" LIMIT ?`, [
    mark,
    chunk,
  ])) as EventRow[];
  if (!rows.length) return 0;
  // a rollup behind the fold (added since these events were folded) is left to catchUpRollups: it would miss the
  // events between its watermark and the fold's
  const current = rollups.filter((r) => marks.get(rollupMark(r.name))! >= mark);
  await deriveEvents(
    tx,
    rows,
    current.map((rollup) => ({ rollup })),
  );
  const last = Number(rows[rows.length - 1][0]);
  await writeMarks(tx, [[FOLDED, last], ...current.map((r): [string, number] => [rollupMark(r.name), last])]);
  return rows.length;
}

/**
 * Brings every rollup behind the fold up to it, a chunk of raw events per transaction (ingestion and the fold go on
 * between chunks), and returns how many events it read; `onProgress` is told the event id reached and the fold's. Reports read a lagging rollup's project from raw rows
 * meanwhile (see rollup-marks.ts `derivedReady`).
 */
export async function catchUpRollups(
  sql: Sql,
  options: {
    rollups?: Rollup[];
    chunk?: number;
    onProgress?: (reached: number, target: number) => void;
    /** asked between chunks: true stops (the service is closing); the next start-up goes on from the watermarks */
    stop?: () => boolean;
  } = {},
): Promise<number> {
  const { rollups = ROLLUPS, chunk = CATCH_UP_CHUNK, onProgress, stop } = options;
  // the common case at every start-up, nothing behind, costs one read and no write lock
  const names = [FOLDED, ...rollups.map((r) => rollupMark(r.name))];
  const start = await readMarks(sql, names);
  if (rollups.every((r) => start.get(rollupMark(r.name))! >= start.get(FOLDED)!)) return 0;
  let done = 0;
  while (!stop?.()) {
    const step = await sql.transaction(async (tx) => {
      const marks = await readMarks(tx, names);
      const folded = marks.get(FOLDED)!;
      const behind = rollups.filter((r) => marks.get(rollupMark(r.name))! < folded);
      if (!behind.length) return null;
      const from = Math.min(...behind.map((r) => marks.get(rollupMark(r.name))!));
      const rows = (await tx.rows(
        `SELECT ${EVENT_COLUMNS} FROM "AnalyticsEvent" WHERE "id" > ? AND "id" <= ? ORDER BY "id" LIMIT ?`,
        [from, folded, chunk],
      )) as EventRow[];
      const last = rows.length ? Number(rows[rows.length - 1][0]) : folded;
      const events = rows.map(foldedEvent);
      for (const rollup of behind) {
        const after = marks.get(rollupMark(rollup.name))!;
        const unseen = events.filter((e) => e.id > after);
        if (unseen.length) await rollup.add(tx, unseen);
      }
      const reached = rows.length < chunk ? folded : last;
      await writeMarks(
        tx,
        behind.map((r): [string, number] => [rollupMark(r.name), Math.max(marks.get(rollupMark(r.name))!, reached)]),
      );
      return { read: rows.length, reached, folded };
    });
    if (!step) return done;
    done += step.read;
    onProgress?.(step.reached, step.folded);
  }
  return done;
}
