import type { Sql } from './sql.js';
import { deriveEvents, EVENT_COLUMNS, type EventRow } from './derive-events.js';
import { bumpSignalsVersion } from './signals-version.js';
import { recountSearchDays } from '../signals/store/search-days.js';
import { ROLLUPS } from './rollups/all-rollups.js';
import type { Rollup } from './rollups/rollup.js';
import { FOLDED, readMarks, rebuildMark, writeMarks } from './rollups/rollup-marks.js';
import { pageDaysMissing } from './rollups/page-days.js';

const REBUILD_CHUNK = 100_000;

/** Derived tables every rebuild clears, beside the rollups' own. */
const DERIVED_TABLES = ['AnalyticsDaySet', 'AnalyticsDayViews'];

export interface RebuildProgress {
  projectId: string;
  /** events re-derived so far, of `total` */
  done: number;
  total: number;
}

/**
 * Clears the derived rows of a project (or of every project) and derives them again from its raw events, up to the
 * watermark read when it starts (the fold goes on adding newer events meanwhile). The first transaction, which clears
 * the rows and recounts the searches, holds both analytics locks; each chunk after it holds the derived lock alone,
 * as a fold does, so ingestion goes on meanwhile. While it runs, the project's reports answer from
 * raw rows (the `rebuild:<project>` mark); a rebuild cut short leaves that mark, and running it again starts over.
 */
export async function rebuildDerived(
  sql: Sql,
  options: { projectId?: string; rollups?: Rollup[]; chunk?: number; onProgress?: (p: RebuildProgress) => void } = {},
): Promise<{ projects: number; events: number }> {
  const { rollups = ROLLUPS, chunk = REBUILD_CHUNK, onProgress } = options;
  const projects = options.projectId ? [options.projectId] : await derivedProjects(sql, rollups);
  let events = 0;
  for (const projectId of projects) events += await rebuildProject(sql, { projectId, rollups, chunk, onProgress });
  return { projects: projects.length, events };
}

async function rebuildProject(
  sql: Sql,
  params: { projectId: string; rollups: Rollup[]; chunk: number; onProgress?: (p: RebuildProgress) => void },
): Promise<number> {
  const { projectId, rollups, chunk, onProgress } = params;
  const folded = await sql.transaction(
    async (tx) => {
      const marks = await readMarks(tx, [FOLDED]);
      await writeMarks(tx, [[rebuildMark(projectId), 1]]);
      for (const table of [...DERIVED_TABLES, ...rollups.flatMap((r) => r.tables)])
        await tx.run(`DELETE FROM "${table}" WHERE "projectId" = ?`, [projectId]);
      // re-derived from every event now: the rebuild mark keeps readers on raw events until it is done
      await tx.run('DELETE FROM "AnalyticsState" WHERE "name" = ?', [pageDaysMissing(projectId)]);
      // kept and bumped, never reset: a cached copy made under an old generation must not match a new one
      await tx.run('UPDATE "AnalyticsDay" SET "generation" = "generation" + 1 WHERE "projectId" = ?', [projectId]);
      // derived from searches, which are never folded: recounted whole in this transaction, and what was kept of the
      // old counts (the problems queue's answers) read again
      await recountSearchDays(tx, projectId);
      await bumpSignalsVersion(tx, projectId);
      return marks.get(FOLDED)!;
    },
    ['write', 'derived'],
  );
  const [count] = await sql.query<{ n: unknown }>(
    'SELECT COUNT(*) AS n FROM "AnalyticsEvent" WHERE "projectId" = ? AND "id" <= ?',
    [projectId, folded],
  );
  const total = Number(count.n);
  let done = 0;
  // walked in (ts, id) order along the (projectId, ts) index, which holds the row id on both databases' plans
  let after = { ts: -1, id: 0 };
  onProgress?.({ projectId, done, total });
  for (;;) {
    const rows = await sql.transaction(
      async (tx) => {
        const chunkRows = (await tx.rows(
          `SELECT ${EVENT_COLUMNS} FROM "AnalyticsEvent" WHERE "projectId" = ? AND "ts" >= ? AND NOT ("ts" = ? AND "id" <= ?) AND "id" <= ? ORDER BY "ts", "id" LIMIT ?`,
          [projectId, after.ts, after.ts, after.id, folded, chunk],
        )) as EventRow[];
        if (chunkRows.length) await deriveEvents(tx, chunkRows, rollups);
        return chunkRows;
      },
      ['derived'],
    );
    done += rows.length;
    if (rows.length) {
      const [id, , ts] = rows[rows.length - 1];
      after = { ts: Number(ts), id: Number(id) };
      onProgress?.({ projectId, done, total });
    }
    if (rows.length < chunk) break;
  }
  await sql.run('DELETE FROM "AnalyticsState" WHERE "name" = ?', [rebuildMark(projectId)]);
  return done;
}

/** Every project with raw events, searches or derived rows. */
async function derivedProjects(sql: Sql, rollups: Rollup[]): Promise<string[]> {
  const tables = ['AnalyticsPage', 'AnalyticsDay', 'AnalyticsSearch', ...rollups.flatMap((r) => r.tables)];
  const rows = await sql.query<{ projectId: string }>(
    tables.map((t) => `SELECT DISTINCT "projectId" AS "projectId" FROM "${t}"`).join(' UNION '),
  );
  return rows.map((r) => r.projectId).sort();
}
