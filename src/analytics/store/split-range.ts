import { DAY_MS, type TimeRange } from '../../calendar.js';
import type { Sql } from './sql.js';
import { derivedMark } from './rollups/rollup-marks.js';

/**
 * Whole UTC days inside a range ([first, end) day numbers, null when none), and the partial-day edges every report
 * reads from raw rows.
 */
export function splitRange({ from, to }: TimeRange): { days: [number, number] | null; edges: TimeRange[] } {
  const firstDay = Math.ceil(from / DAY_MS);
  const endDay = Math.floor(to / DAY_MS);
  if (firstDay >= endDay) return { days: null, edges: [{ from, to }] };
  const edges: TimeRange[] = [];
  if (from < firstDay * DAY_MS) edges.push({ from, to: firstDay * DAY_MS });
  if (to > endDay * DAY_MS) edges.push({ from: endDay * DAY_MS, to });
  return { days: [firstDay, endDay], edges };
}

/** Events read per step of daysAfter. */
const AFTER_STEP = 5000;

/**
 * The UTC days of a project's events after the watermark, each with the newest such event's id. They are few (the
 * fold runs five seconds after ingestion), so they are read along the primary key in steps, `ORDER BY id LIMIT`: a plan
 * both databases choose whatever their statistics say. (A filter alone, `id > ?`, is planned as a scan of the whole
 * table by PostgreSQL before it has analysed the table, as after a bulk import: a third of a second per million
 * events, for every report.)
 */
export async function unfoldedDays(
  sql: Sql,
  params: { projectId: string; mark: number },
): Promise<Map<number, number>> {
  const days = new Map<number, number>();
  for (let after = params.mark; ; ) {
    const rows = await sql.rows(
      `SELECT "id", "projectId", "ts" FROM "AnalyticsEvent" WHERE "id" > ? ORDER BY "id" LIMIT ${AFTER_STEP}`,
      [after],
    );
    for (const [id, project, ts] of rows)
      if (project === params.projectId) days.set(Math.floor(Number(ts) / DAY_MS), Number(id));
    if (rows.length < AFTER_STEP) return days;
    after = Number(rows[rows.length - 1][0]);
  }
}

/** How a report answers a range: whole days from derived rows, the rest from raw events. */
export interface RangePlan {
  /** runs of whole days [first, end) read from derived rows */
  days: [number, number][];
  /** ranges read from raw events */
  raw: TimeRange[];
}

/**
 * The one rule by which every page-view report splits a range, read in the caller's snapshot: whole days come from
 * derived rows, which hold every event up to the fold's watermark; the partial-day edges, and the whole days that
 * have events after the watermark (not folded yet), come from raw events. While derived rows cannot answer (a rebuild
 * of the project: see derivedMark) the whole range is raw. So an answer
 * is exact for the snapshot's events, whether or not the fold has caught up, and a report never folds.
 */
export async function planRange(sql: Sql, params: { projectId: string; range: TimeRange }): Promise<RangePlan> {
  const { projectId, range } = params;
  const mark = await derivedMark(sql, projectId);
  if (mark === undefined) return { days: [], raw: [range] };
  const { days, edges } = splitRange(range);
  if (!days) return { days: [], raw: edges };
  const late = [...(await unfoldedDays(sql, { projectId, mark })).keys()]
    .filter((day) => day >= days[0] && day < days[1])
    .sort((a, b) => a - b);
  const runs: [number, number][] = [];
  let start = days[0];
  for (const day of late) {
    if (day > start) runs.push([start, day]);
    start = day + 1;
  }
  if (start < days[1]) runs.push([start, days[1]]);
  return { days: runs, raw: [...edges, ...late.map((day) => ({ from: day * DAY_MS, to: (day + 1) * DAY_MS }))] };
}

/**
 * The part of a plan inside `range`, a sub-range of the planned one: what planRange answers for `range` in the same
 * snapshot (a derived whole day stays derived, a raw range is cut to the sub-range), without reading again. A reader
 * that walks a range day by day plans it once.
 */
export function planWithin(plan: RangePlan, range: TimeRange): RangePlan {
  const [firstDay, endDay] = [Math.ceil(range.from / DAY_MS), Math.floor(range.to / DAY_MS)];
  const days: [number, number][] = [];
  for (const [first, end] of plan.days) {
    const [from, to] = [Math.max(first, firstDay), Math.min(end, endDay)];
    if (from < to) days.push([from, to]);
  }
  const raw: TimeRange[] = [];
  for (const part of plan.raw) {
    const [from, to] = [Math.max(part.from, range.from), Math.min(part.to, range.to)];
    if (from < to) raw.push({ from, to });
  }
  return { days, raw };
}
