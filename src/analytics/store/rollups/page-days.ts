import { DAY_MS } from '../../../calendar.js';
import { inChunks, type Sql } from '../sql.js';
import { KIND } from '../day-sets.js';
import { VIA_PREFIX } from '../write-events.js';
import { lowerBound, pageEventsBytes, type DayEvents, type TimedVisitors } from '../read-events.js';
import { readMarks } from './rollup-marks.js';
import type { FoldedEvent, Rollup } from './rollup.js';

/**
 * Per UTC day and page, the day's counted views in time order, packed (`AnalyticsPageDay`): what a part of a day (an
 * outcome window's edge) is cut from. The raw events hold the same, but only an index by time reaches them, so any
 * part of a day walks every page's views of it, about a microsecond each, where this is one row per page.
 */
export const pageDaysRollup: Rollup = {
  name: 'page-days',
  tables: ['AnalyticsPageDay'],
  add: addPageDays,
};

/**
 * The mark of a project whose stored views were folded before this rollup existed (written by its migration): its
 * rows lack those views until `scribe analytics rebuild` re-derives the project, which removes the mark. While it stands,
 * readers take the raw events instead (reports/outcome-counts.ts).
 */
export const pageDaysMissing = (projectId: string) => `page-days-missing:${projectId}`;

/** Whether the project's page days hold every folded view (no pageDaysMissing mark). */
export async function pageDaysComplete(sql: Sql, projectId: string): Promise<boolean> {
  return !(await readMarks(sql, [pageDaysMissing(projectId)])).get(pageDaysMissing(projectId));
}

/** A page's views of one class while they are added: times (ms into the day) and visitors, in the order added. */
interface Pending {
  at: number[];
  visitors: number[];
}

/** Human, AI, and the humans an assistant's answer sent (views marked `via <assistant>`), as in DayEvents. */
const CLASSES = 3;

async function addPageDays(tx: Sql, events: FoldedEvent[]): Promise<void> {
  // project → day → page → the three classes' new views
  const added = new Map<string, Map<number, Map<number, Pending[]>>>();
  for (const e of events) {
    if ((e.kind !== KIND.human && e.kind !== KIND.ai) || e.visitorId === null) continue;
    let days = added.get(e.projectId);
    if (!days) added.set(e.projectId, (days = new Map()));
    let pages = days.get(e.day);
    if (!pages) days.set(e.day, (pages = new Map()));
    let classes = pages.get(e.pageId);
    if (!classes) pages.set(e.pageId, (classes = Array.from({ length: CLASSES }, () => ({ at: [], visitors: [] }))));
    const at = e.ts - e.day * DAY_MS;
    // no closure per event: this loop runs for every view folded
    const first = e.kind === KIND.ai ? classes[1] : classes[0];
    first.at.push(at);
    first.visitors.push(e.visitorId);
    if (e.kind === KIND.human && e.agent?.startsWith(VIA_PREFIX)) {
      classes[2].at.push(at);
      classes[2].visitors.push(e.visitorId);
    }
  }
  for (const [projectId, days] of added) for (const [day, pages] of days) await writeDay(tx, projectId, day, pages);
}

/** Merges a day's new views into its pages' stored rows. */
async function writeDay(tx: Sql, projectId: string, day: number, pages: Map<number, Pending[]>): Promise<void> {
  const stored = (await readRows(tx, projectId, [day], [...pages.keys()])).get(day)!;
  const rows = [...pages].map(([pageId, classes]) => {
    const before = stored.get(pageId);
    const merged = classes.map((pending, c) => mergeTimed(before?.[c], pending));
    return [projectId, day, pageId, encodePageDay(merged)];
  });
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

/** One page's views of a class in time order, with `pending` merged in (sorted first unless it is in time order). */
export function mergeTimed(stored: TimedVisitors | undefined, pending: Pending): TimedVisitors {
  // a chunk comes in id order, which is time order unless views arrived late: then no sort is needed
  let inOrder = true;
  for (let i = 1; i < pending.at.length && inOrder; i++) inOrder = pending.at[i - 1] <= pending.at[i];
  const order = inOrder ? undefined : pending.at.map((_, i) => i).sort((a, b) => pending.at[a] - pending.at[b]);
  const at = order ? order.map((i) => pending.at[i]) : pending.at;
  const visitors = order ? order.map((i) => pending.visitors[i]) : pending.visitors;
  const old = stored ?? { at: new Uint32Array(0), visitors: new Uint32Array(0) };
  const n = old.at.length + at.length;
  const out = { at: new Uint32Array(n), visitors: new Uint32Array(n) };
  // the stored views before the first new one, copied at once (new views of a day mostly come after the stored)
  const before = at.length ? lowerBound(old.at, at[0] + 1) : old.at.length;
  out.at.set(old.at.subarray(0, before));
  out.visitors.set(old.visitors.subarray(0, before));
  let [i, j] = [before, 0];
  for (let k = before; k < n; k++) {
    if (j >= at.length || (i < old.at.length && old.at[i] <= at[j])) {
      out.at[k] = old.at[i];
      out.visitors[k] = old.visitors[i++];
    } else {
      out.at[k] = at[j];
      out.visitors[k] = visitors[j++];
    }
  }
  return out;
}

/**
 * A row's blob: the three classes' lengths, then each class's times and visitors, all little-endian uint32 (times
 * are milliseconds into the day: under 2^27).
 */
export function encodePageDay(classes: readonly TimedVisitors[]): Buffer {
  const words = new Uint32Array(CLASSES + classes.reduce((n, c) => n + 2 * c.at.length, 0));
  let offset = CLASSES;
  classes.forEach((c, i) => {
    words[i] = c.at.length;
    words.set(c.at, offset);
    words.set(c.visitors, offset + c.at.length);
    offset += 2 * c.at.length;
  });
  return Buffer.from(words.buffer);
}

export function decodePageDay(blob: Buffer): TimedVisitors[] {
  // copied into aligned words (a database hands blobs at any offset)
  const words = new Uint32Array(blob.length >>> 2);
  new Uint8Array(words.buffer).set(blob.subarray(0, words.byteLength));
  if (words.length < CLASSES) throw new Error('not a page day');
  const out: TimedVisitors[] = [];
  let offset = CLASSES;
  for (let c = 0; c < CLASSES; c++) {
    const n = words[c];
    if (offset + 2 * n > words.length) throw new Error('not a page day');
    out.push({ at: words.subarray(offset, offset + n), visitors: words.subarray(offset + n, offset + 2 * n) });
    offset += 2 * n;
  }
  return out;
}

// the words are stored as this process's typed arrays hold them: little-endian on every platform Node runs on here
if (new Uint8Array(new Uint32Array([1]).buffer)[0] !== 1) throw new Error('page days assume a little-endian machine');

/** Stored rows of some days and pages, decoded: day → page → classes. */
async function readRows(
  sql: Sql,
  projectId: string,
  days: readonly number[],
  pageIds: readonly number[],
): Promise<Map<number, Map<number, TimedVisitors[]>>> {
  const out = new Map<number, Map<number, TimedVisitors[]>>(days.map((day) => [day, new Map()]));
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
    for (const [pageId, [human, ai, referred]] of rows) {
      pages.set(pageId, { human, ai, referred });
      bytes += pageEventsBytes(human.at.length + ai.at.length + referred.at.length);
    }
    out.set(day, { start: day * DAY_MS, pages, bytes });
  }
  return out;
}
