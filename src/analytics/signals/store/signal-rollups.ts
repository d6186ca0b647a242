import { DAY_MS, type TimeRange } from '../../../calendar.js';
import type { CountsFamily } from '../../store/day-counts.js';
import { inChunks, type Param, type Sql } from '../../store/sql.js';
import { splitRange } from '../../store/split-range.js';
import type { ListWindow } from './list-window.js';
import { VOTES } from './thumbs-votes.js';

/**
 * The per-day counts the feedback-by-page and searches listings read for whole days (`AnalyticsDayFeedback`,
 * `AnalyticsDaySearches`, `AnalyticsDaySearchClicks`), kept in the transaction of every write that adds or changes
 * a row they count.
 */

const DAY = `CAST("ts" / ${DAY_MS} AS INTEGER)`;

/** Feedback per day, page, source and status: thumbs up and down, and entries, as the by-page listing reads them. */
export const FEEDBACK_COUNTS: CountsFamily = {
  name: 'feedback',
  table: 'AnalyticsDayFeedback',
  keys: ['path', 'source', 'status'],
  values: [
    { column: 'up', combine: 'sum' },
    { column: 'down', combine: 'sum' },
    { column: 'total', combine: 'sum' },
  ],
};

/** Searches per day and term (result clicks apart), as the searches listing reads them through the day cache. */
export const SEARCH_COUNTS: CountsFamily = {
  name: 'searches',
  table: 'AnalyticsDaySearches',
  keys: ['query'],
  values: [
    { column: 'hits', combine: 'sum' },
    { column: 'last', combine: 'max' },
  ],
};

/** Result clicks per day, term and clicked page. */
export const CLICK_COUNTS: CountsFamily = {
  name: 'search-clicks',
  table: 'AnalyticsDaySearchClicks',
  keys: ['query', 'path'],
  values: [{ column: 'clicks', combine: 'sum' }],
};
const dayOf = (ts: number) => Math.floor(ts / DAY_MS);

/** What of a feedback row the counts depend on. */
export interface CountedFeedback {
  ts: number;
  path: string;
  source: string;
  status: string;
  /** 1, 0 or null */
  helpful: number | null;
}

const VOTE_SOURCES = new Set(['contextual', 'thumbs_only']);

/**
 * Moves feedback rows' counts from what they were (`before`, null for a new row) to what they are (`after`), in one
 * statement for every cell they changed (and one per cell they emptied).
 */
export async function countFeedbackChanges(
  tx: Sql,
  params: { projectId: string; changes: { before: CountedFeedback | null; after: CountedFeedback | null }[] },
): Promise<void> {
  const { projectId, changes } = params;
  const cells = new Map<string, { cell: CountedFeedback; up: number; down: number; total: number }>();
  const add = (f: CountedFeedback | null, sign: number) => {
    if (!f) return;
    const key = JSON.stringify([dayOf(f.ts), f.path, f.source, f.status]);
    const entry = cells.get(key) ?? { cell: f, up: 0, down: 0, total: 0 };
    const vote = VOTE_SOURCES.has(f.source) ? f.helpful : null;
    entry.up += vote === 1 ? sign : 0;
    entry.down += vote === 0 ? sign : 0;
    entry.total += sign;
    cells.set(key, entry);
  };
  for (const { before, after } of changes) {
    add(before, -1);
    add(after, 1);
  }
  const changed = [...cells.values()].filter(({ up, down, total }) => up || down || total);
  await tx.insertMany({
    table: 'AnalyticsDayFeedback',
    columns: [
      ['projectId', 'text'],
      ['day', 'int'],
      ['path', 'text'],
      ['source', 'text'],
      ['status', 'text'],
      ['up', 'int'],
      ['down', 'int'],
      ['total', 'int'],
    ],
    rows: changed.map(({ cell, up, down, total }) => [
      projectId,
      dayOf(cell.ts),
      cell.path,
      cell.source,
      cell.status,
      up,
      down,
      total,
    ]),
    suffix:
      'ON CONFLICT ("projectId", "day", "path", "source", "status") DO UPDATE SET "up" = "AnalyticsDayFeedback"."up" + excluded."up", ' +
      '"down" = "AnalyticsDayFeedback"."down" + excluded."down", "total" = "AnalyticsDayFeedback"."total" + excluded."total"',
  });
  // an emptied cell would list its page with no feedback
  for (const { cell, total } of changed)
    if (total < 0)
      await tx.run(
        'DELETE FROM "AnalyticsDayFeedback" WHERE "projectId" = ? AND "day" = ? AND "path" = ? AND "source" = ? AND "status" = ? AND "total" = 0',
        [projectId, dayOf(cell.ts), cell.path, cell.source, cell.status],
      );
}

/** countFeedbackChanges for one row. */
export function countFeedbackChange(
  tx: Sql,
  params: { projectId: string; before: CountedFeedback | null; after: CountedFeedback | null },
): Promise<void> {
  const { projectId, before, after } = params;
  return countFeedbackChanges(tx, { projectId, changes: [{ before, after }] });
}

/** The counted values of a project's feedback row now (undefined when there is none). */
export async function countedFeedback(
  tx: Sql,
  params: { projectId: string; id: number },
): Promise<CountedFeedback | undefined> {
  const [row] = await tx.query<{ ts: unknown; path: string; source: string; status: string; helpful: unknown }>(
    'SELECT "ts", "path", "source", "status", "helpful" FROM "AnalyticsFeedback" WHERE "projectId" = ? AND "id" = ?',
    [params.projectId, params.id],
  );
  return (
    row && {
      ts: Number(row.ts),
      path: row.path,
      source: row.source,
      status: row.status,
      helpful: row.helpful === null ? null : Number(row.helpful),
    }
  );
}

/** Adds stored searches and result clicks to the per-day counts. */
export async function countStoredSearches(
  tx: Sql,
  params: { projectId: string; rows: { ts: number; query: string; clickedPath: string | null }[] },
): Promise<void> {
  const { projectId, rows } = params;
  const terms = new Map<string, { day: number; query: string; hits: number; last: number }>();
  const clicks = new Map<string, { day: number; query: string; path: string; clicks: number }>();
  for (const r of rows) {
    const day = dayOf(r.ts);
    if (r.clickedPath === null) {
      const key = JSON.stringify([day, r.query]);
      const t = terms.get(key) ?? { day, query: r.query, hits: 0, last: r.ts };
      t.hits++;
      t.last = Math.max(t.last, r.ts);
      terms.set(key, t);
    } else {
      const key = JSON.stringify([day, r.query, r.clickedPath]);
      const c = clicks.get(key) ?? { day, query: r.query, path: r.clickedPath, clicks: 0 };
      c.clicks++;
      clicks.set(key, c);
    }
  }
  const greatest = tx.provider === 'sqlite' ? 'MAX' : 'GREATEST';
  await tx.insertMany({
    table: 'AnalyticsDaySearches',
    columns: [
      ['projectId', 'text'],
      ['day', 'int'],
      ['query', 'text'],
      ['hits', 'int'],
      ['last', 'bigint'],
    ],
    rows: [...terms.values()].map((t) => [projectId, t.day, t.query, t.hits, t.last]),
    suffix:
      'ON CONFLICT ("projectId", "day", "query") DO UPDATE SET "hits" = "AnalyticsDaySearches"."hits" + excluded."hits", ' +
      `"last" = ${greatest}("AnalyticsDaySearches"."last", excluded."last")`,
  });
  await tx.insertMany({
    table: 'AnalyticsDaySearchClicks',
    columns: [
      ['projectId', 'text'],
      ['day', 'int'],
      ['query', 'text'],
      ['path', 'text'],
      ['clicks', 'int'],
    ],
    rows: [...clicks.values()].map((c) => [projectId, c.day, c.query, c.path, c.clicks]),
    suffix:
      'ON CONFLICT ("projectId", "day", "query", "path") DO UPDATE SET "clicks" = "AnalyticsDaySearchClicks"."clicks" + excluded."clicks"',
  });
}

/** A project's per-day feedback and search counts recounted from its rows (a rebuild), in the caller's transaction. */
export async function recountSignals(tx: Sql, projectId: string): Promise<void> {
  for (const table of ['AnalyticsDayFeedback', 'AnalyticsDaySearches', 'AnalyticsDaySearchClicks'])
    await tx.run(`DELETE FROM "${table}" WHERE "projectId" = ?`, [projectId]);
  await tx.run(
    `INSERT INTO "AnalyticsDayFeedback" ("projectId", "day", "path", "source", "status", "up", "down", "total")
     SELECT "projectId", ${DAY}, "path", "source", "status", SUM(CASE WHEN ${VOTES} AND "helpful" = 1 THEN 1 ELSE 0 END),
            SUM(CASE WHEN ${VOTES} AND "helpful" = 0 THEN 1 ELSE 0 END), COUNT(*)
       FROM "AnalyticsFeedback" WHERE "projectId" = ? GROUP BY "projectId", ${DAY}, "path", "source", "status"`,
    [projectId],
  );
  await tx.run(
    `INSERT INTO "AnalyticsDaySearches" ("projectId", "day", "query", "hits", "last")
     SELECT "projectId", ${DAY}, "query", COUNT(*), MAX("ts") FROM "AnalyticsSearch"
      WHERE "projectId" = ? AND "clickedPath" IS NULL GROUP BY "projectId", ${DAY}, "query"`,
    [projectId],
  );
  await tx.run(
    `INSERT INTO "AnalyticsDaySearchClicks" ("projectId", "day", "query", "path", "clicks")
     SELECT "projectId", ${DAY}, "query", "clickedPath", COUNT(*) FROM "AnalyticsSearch"
      WHERE "projectId" = ? AND "clickedPath" IS NOT NULL GROUP BY "projectId", ${DAY}, "query", "clickedPath"`,
    [projectId],
  );
}

/**
 * How a listing's window splits between the per-day counts and the rows: whole days whose rows are as they stood at
 * the window's first page come from the counts; the partial days at the edges, and days with rows stored or changed
 * since (`stale`), from the rows as they stood then. `days` null: no whole day is read from the counts.
 */
export interface WindowSplit {
  days: [number, number] | null;
  /** whole days inside `days` read from the rows */
  stale: number[];
  /** time ranges read from the rows: the edges and the stale days */
  raw: TimeRange[];
}

/**
 * Splits a window; `staleDays` lists the days whose rows changed since the window's first page. Call it and read
 * in one transaction under the write lock, so no write falls between the two.
 */
export function splitWindow(window: ListWindow, staleDays: Iterable<number>): WindowSplit {
  const { days, edges } = splitRange(window);
  if (!days) return { days: null, stale: [], raw: edges };
  const stale = [...new Set(staleDays)].filter((d) => d >= days[0] && d < days[1]).sort((a, b) => a - b);
  return { days, stale, raw: [...edges, ...stale.map((d) => ({ from: d * DAY_MS, to: (d + 1) * DAY_MS }))] };
}

/** The rows' part of a split as a condition on "ts" (never true when empty), with its parameters. */
export function rawRanges(split: WindowSplit): { where: string; params: Param[] } {
  if (!split.raw.length) return { where: '1 = 0', params: [] };
  return {
    where: `(${split.raw.map(() => '("ts" >= ? AND "ts" < ?)').join(' OR ')})`,
    params: split.raw.flatMap((r) => [r.from, r.to]),
  };
}

/** Days (in the window) of a table's rows stored after the window's snapshot. */
export async function daysStoredSince(
  tx: Sql,
  params: { table: 'AnalyticsFeedback' | 'AnalyticsSearch'; window: ListWindow },
): Promise<number[]> {
  const { table, window } = params;
  const days = new Set<number>();
  for await (const [projectId, ts] of rowsAfter(tx, { table, columns: ['projectId', 'ts'], after: window.snapshot })) {
    const at = Number(ts);
    if (projectId === window.projectId && at >= window.from && at < window.to) days.add(dayOf(at));
  }
  return [...days];
}

/** rows read at a time by rowsAfter */
const AFTER_BATCH = 1000;

/**
 * A table's rows with ids above `after`, in id order, a batch at a time: by the primary key, whatever the planner
 * knows of the table. A condition on the id alone lets PostgreSQL scan the whole table when it has no statistics yet
 * (a young table, or one just loaded: 35 ms over 500,000 searches, on every page), though the rows since a listing's
 * first page are few or none; `ORDER BY "id" LIMIT` is answered along the key.
 */
async function* rowsAfter(
  tx: Sql,
  params: { table: string; columns: string[]; after: number },
): AsyncGenerator<unknown[]> {
  const columns = params.columns.map((c) => `"${c}"`).join(', ');
  let after = params.after;
  for (;;) {
    const rows = await tx.rows(
      `SELECT "id", ${columns} FROM "${params.table}" WHERE "id" > ? ORDER BY "id" LIMIT ${AFTER_BATCH}`,
      [after],
    );
    for (const [, ...values] of rows) yield values;
    if (rows.length < AFTER_BATCH) return;
    after = Number(rows[rows.length - 1][0]);
  }
}

/** Days (in the window) of feedback rows changed after the window's change id. */
export async function daysChangedSince(tx: Sql, window: ListWindow): Promise<number[]> {
  // the changes since by their primary key, then their rows by theirs: a join would let a planner without
  // statistics (a young table) walk the feedback instead
  const changed = new Set<number>();
  for await (const [feedbackId] of rowsAfter(tx, {
    table: 'AnalyticsFeedbackChange',
    columns: ['feedbackId'],
    after: window.changes,
  }))
    changed.add(Number(feedbackId));
  const ids = [...changed];
  const days = new Set<number>();
  for (const some of inChunks(ids)) {
    const rows = await tx.query<{ ts: unknown }>(
      `SELECT "ts" FROM "AnalyticsFeedback" WHERE "id" IN (${some.map(() => '?').join(', ')}) AND "projectId" = ?`,
      [...some, window.projectId],
    );
    for (const r of rows) {
      const ts = Number(r.ts);
      if (ts >= window.from && ts < window.to) days.add(dayOf(ts));
    }
  }
  return [...days];
}
