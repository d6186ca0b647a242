import { DAY_MS } from '../../../calendar.js';
import { inChunks, type Sql } from '../sql.js';
import { KIND } from '../day-sets.js';
import {
  addView,
  decodePageDay,
  encodePageDay,
  packViews,
  pageViewsBytes,
  pendingViews,
  type DayEvents,
  type PageDayViews,
  type PendingViews,
} from '../page-day-views.js';
import { readMarks } from './rollup-marks.js';
import type { FoldedEvent, Rollup } from './rollup.js';

/**
 * Per UTC day and page, the day's counted views in time order, packed (`AnalyticsPageDay`, page-day-views.ts): what
 * a part of a day (an outcome window's edge) is cut from. The raw events hold the same, but only an index by time
 * reaches them, so any part of a day walks every page's views of it, about a microsecond each, where this is one row
 * per page.
 */
export const pageDaysRollup: Rollup = {
  name: 'page-days',
  tables: ['AnalyticsPageDay'],
  add: addPageDays,
};

/**
 * The mark of a project whose page days lack views folded before (written by the migrations that brought the table
 * and that gave its rows each AI view's agent, removing the rows of the layout before): they lack those views until
 * `scribe analytics rebuild` re-derives the project, which removes the mark. While it stands, readers take the raw
 * events instead (reports/outcome-counts.ts).
 */
export const pageDaysMissing = (projectId: string) => `page-days-missing:${projectId}`;

/** Whether the project's page days hold every folded view (no pageDaysMissing mark). */
export async function pageDaysComplete(sql: Sql, projectId: string): Promise<boolean> {
  return !(await readMarks(sql, [pageDaysMissing(projectId)])).get(pageDaysMissing(projectId));
}

async function addPageDays(tx: Sql, events: FoldedEvent[]): Promise<void> {
  // project → day → page → its new views
  const added = new Map<string, Map<number, Map<number, PendingViews>>>();
  for (const e of events) {
    if ((e.kind !== KIND.human && e.kind !== KIND.ai) || e.visitorId === null) continue;
    let days = added.get(e.projectId);
    if (!days) added.set(e.projectId, (days = new Map()));
    let pages = days.get(e.day);
    if (!pages) days.set(e.day, (pages = new Map()));
    let views = pages.get(e.pageId);
    if (!views) pages.set(e.pageId, (views = pendingViews()));
    addView(views, e.kind, e.agent, e.ts - e.day * DAY_MS, e.visitorId);
  }
  for (const [projectId, days] of added) for (const [day, pages] of days) await writeDay(tx, projectId, day, pages);
}

/** Merges a day's new views into its pages' stored rows. */
async function writeDay(tx: Sql, projectId: string, day: number, pages: Map<number, PendingViews>): Promise<void> {
  const stored = (await readRows(tx, projectId, [day], [...pages.keys()])).get(day)!;
  const rows = [...pages].map(([pageId, views]) => [
    projectId,
    day,
    pageId,
    encodePageDay(packViews(views, stored.get(pageId))),
  ]);
  for (const chunk of inChunks(rows))
    await tx.insertMany({
      table: 'AnalyticsPageDay',
      columns: [
        ['projectId', 'text'],
        ['day', 'int'],
        ['pageId', 'int'],
        ['views', 'bytes'],
      ],
      rows: chunk,
      suffix: 'ON CONFLICT ("projectId", "day", "pageId") DO UPDATE SET "views" = excluded."views"',
    });
}

/** Stored rows of some days and pages, decoded: day → page → classes. */
async function readRows(
  sql: Sql,
  projectId: string,
  days: readonly number[],
  pageIds: readonly number[],
): Promise<Map<number, Map<number, PageDayViews>>> {
  const out = new Map<number, Map<number, PageDayViews>>(days.map((day) => [day, new Map()]));
  const list = (values: readonly number[]) => values.map(() => '?').join(', ');
  // days and pages as two lists: the primary key (project, day, page) is then probed for each pair, where a range of
  // days would walk every page of each of them
  for (const someDays of inChunks([...days]))
    for (const somePages of inChunks([...pageIds])) {
      const rows = await sql.rows(
        `SELECT "day", "pageId", "views" FROM "AnalyticsPageDay"
          WHERE "projectId" = ? AND "day" IN (${list(someDays)}) AND "pageId" IN (${list(somePages)})`,
        [projectId, ...someDays, ...somePages],
      );
      for (const [day, pageId, views] of rows)
        out.get(Number(day))!.set(Number(pageId), decodePageDay(views as Buffer));
    }
  return out;
}

/**
 * readPageDays's answer where the project's page days hold every folded view; null while they lack views folded
 * before they existed (pageDaysComplete, until a rebuild): readers take the raw events then (read-events.ts dayEvents).
 */
export async function pageDays(
  sql: Sql,
  params: { projectId: string; days: readonly number[]; pageIds: readonly number[] },
): Promise<Map<number, DayEvents> | null> {
  return (await pageDaysComplete(sql, params.projectId)) ? readPageDays(sql, params) : null;
}

/**
 * Some days' counted views as folded, per page of `pageIds` and class in time order. The same
 * DayEvents the raw events give (read-events.ts dayEvents) for a day with no views waiting for the fold, at the cost of
 * a row per page.
 */
export async function readPageDays(
  sql: Sql,
  params: { projectId: string; days: readonly number[]; pageIds: readonly number[] },
): Promise<Map<number, DayEvents>> {
  const out = new Map<number, DayEvents>();
  for (const [day, rows] of await readRows(sql, params.projectId, params.days, params.pageIds)) {
    const pages: DayEvents['pages'] = new Map();
    let bytes = 0;
    for (const [pageId, views] of rows) {
      pages.set(pageId, views);
      bytes += pageViewsBytes(views);
    }
    out.set(day, { start: day * DAY_MS, pages, bytes });
  }
  return out;
}
