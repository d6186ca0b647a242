import { DAY_MS, type TimeRange } from '../../calendar.js';
import { inChunks, type Param, type Sql } from '../store/sql.js';
import { compareCodePoints } from './compare-code-points.js';
import { addPageVisitors, KIND, pageMasks, RoaringBitmap32, type Bitmap } from '../store/day-sets.js';
import type { AnalyticsStore } from '../store/event-store.js';
import type { DayEvents, TimedVisitors } from '../store/read-events.js';
import { settledVersion } from '../store/read-days.js';
import { segmentKey, type CacheLease } from '../store/day-cache.js';
import { daySetSegments } from './range-sources.js';
import { agentCellSegments } from './agent-cells.js';
import { plannedOnce } from './segments.js';
import { VIA_PREFIX } from '../store/write-events.js';
import { readMissingPages } from './missing-pages.js';
import { VOTES } from '../signals/store/thumbs-votes.js';

/** One page's (or all the pages') side of a window. */
export interface SideCounts {
  human: number;
  ai: number;
  thumbsUp: number;
  thumbsDown: number;
  /** distinct human visitors an AI assistant's answer sent (views marked `via <assistant>`) */
  referred: number;
}

/** What one window says about some pages: exact distinct visitors, thumbs, and the misses of some URLs. */
export interface WindowCounts {
  /** distinct visitors of each page, and of all of them together (a visitor of two pages counts once) */
  pages: Map<string, SideCounts>;
  total: SideCounts;
  /** requests that got 404/410 per URL asked about */
  misses: Map<string, number>;
  /** site searches of the queries asked about: how many, and how many of them clicked into one of the pages */
  searches: { searches: number; clicks: number };
  /** the visitors of each group of paths asked about together (thumbs are not counted for them) */
  together?: SideCounts[];
}

/**
 * The queries whose searches clicked into one of the pages within the range (normalised as stored), at most `limit`,
 * most searched first: the searches that led readers to the pages.
 */
export async function readQueriesInto(
  sql: Sql,
  params: { projectId: string; paths: readonly string[]; range: TimeRange; limit: number },
): Promise<string[]> {
  const led = new Map<string, number>();
  for (const [query, n] of await rowsOfEach(
    sql,
    params.paths,
    'SELECT "query", COUNT(*) FROM "AnalyticsSearch" WHERE "projectId" = ? AND "clickedPath" = ? AND "ts" >= ? AND "ts" < ? GROUP BY "query"',
    (path) => [params.projectId, path, params.range.from, params.range.to],
  ))
    led.set(String(query), (led.get(String(query)) ?? 0) + Number(n));
  return [...led]
    .sort(([a, x], [b, y]) => y - x || compareCodePoints(a, b))
    .slice(0, params.limit)
    .map(([query]) => query);
}

/** Keys asked per statement by rowsOfEach (SQLite takes at most 500 terms in a compound SELECT). */
const EACH_CHUNK = 100;

/**
 * The rows of `select` asked of each distinct value (bound by `args`), a UNION ALL of one equality per value: both
 * databases answer each along the index that leads with it (a page's feedback, a query's searches) even when
 * PostgreSQL has no statistics for the table yet — given an IN list it scanned every row of the range instead (after
 * a bulk import, 8–60 ms for each side of each outcome window at 10M).
 */
async function rowsOfEach(
  sql: Sql,
  values: readonly string[],
  select: string,
  args: (value: string) => Param[],
): Promise<unknown[][]> {
  const distinct = [...new Set(values)];
  const rows: unknown[][] = [];
  for (let i = 0; i < distinct.length; i += EACH_CHUNK) {
    const chunk = distinct.slice(i, i + EACH_CHUNK);
    for (const row of await sql.rows(chunk.map(() => select).join(' UNION ALL '), chunk.flatMap(args))) rows.push(row);
  }
  return rows;
}

/** The groups of paths a window's visitors are counted for: each page, the pages together, then `together`'s. */
export function outcomeGroups(params: {
  paths: readonly string[];
  together?: readonly (readonly string[])[];
}): (readonly string[])[] {
  return [...params.paths.map((path) => [path]), params.paths, ...(params.together ?? [])];
}

/**
 * One outcome window: each page's distinct visitors and the pages' together (a reader of two of them once), and each
 * group of `together` (a moved page's old and new path), as `visitors` counted them for the groups of outcomeGroups
 * (countGroupVisitors: whole days from the derived rows, edges from raw events); thumbs from the pages' feedback in
 * one grouped read; the searches of the queries; the misses of the URLs.
 */
export async function readOutcomeCounts(
  sql: Sql,
  params: {
    projectId: string;
    paths: readonly string[];
    urls: readonly string[];
    range: TimeRange;
    /** the queries whose searches are counted (readQueriesInto over both sides of the window) */
    queries?: readonly string[];
    /** groups of paths whose visitors are also counted together, each reader once (`WindowCounts.together`) */
    together?: readonly (readonly string[])[];
  },
  visitors: readonly VisitorCounts[],
): Promise<WindowCounts> {
  const { projectId, range } = params;
  const counts: WindowCounts = {
    pages: new Map(),
    total: { human: 0, ai: 0, thumbsUp: 0, thumbsDown: 0, referred: 0 },
    misses: new Map(),
    searches: { searches: 0, clicks: 0 },
    together: [],
  };
  const together = params.together ?? [];
  const side = (v: VisitorCounts): SideCounts => ({ ...v, thumbsUp: 0, thumbsDown: 0 });
  if (params.paths.length || together.length) {
    params.paths.forEach((path, i) => {
      counts.pages.set(path, side(visitors[i]));
    });
    if (params.paths.length) counts.total = side(visitors[params.paths.length]);
    counts.together = visitors.slice(params.paths.length + 1).map(side);
  }
  if (params.paths.length) {
    for (const [path, up, down] of await rowsOfEach(
      sql,
      params.paths,
      `SELECT "path", SUM(CASE WHEN ${VOTES} AND "helpful" = 1 THEN 1 ELSE 0 END),
              SUM(CASE WHEN ${VOTES} AND "helpful" = 0 THEN 1 ELSE 0 END)
         FROM "AnalyticsFeedback" WHERE "projectId" = ? AND "path" = ? AND "ts" >= ? AND "ts" < ? GROUP BY "path"`,
      (path) => [projectId, path, range.from, range.to],
    )) {
      const page = counts.pages.get(String(path))!;
      page.thumbsUp = Number(up ?? 0);
      page.thumbsDown = Number(down ?? 0);
      counts.total.thumbsUp += page.thumbsUp;
      counts.total.thumbsDown += page.thumbsDown;
    }
  }
  const queries = params.queries ?? [];
  if (queries.length && params.paths.length) {
    const clicked = `CASE WHEN "clickedPath" IN (${params.paths.map(() => '?').join(', ')}) THEN 1 ELSE 0 END`;
    for (const [searches, clicks] of await rowsOfEach(
      sql,
      queries,
      `SELECT COUNT(*), SUM(${clicked}) FROM "AnalyticsSearch"
        WHERE "projectId" = ? AND "query" = ? AND "ts" >= ? AND "ts" < ?`,
      (query) => [...params.paths, projectId, query, range.from, range.to],
    )) {
      counts.searches.searches += Number(searches ?? 0);
      counts.searches.clicks += Number(clicks ?? 0);
    }
  }
  for (const url of params.urls) {
    const [missing] = await readMissingPages(sql, { projectId, range, paths: [url] });
    counts.misses.set(url, missing?.requests ?? 0);
  }
  return counts;
}

/** Distinct visitors of some pages (or of several pages together), by class. */
export interface VisitorCounts {
  human: number;
  ai: number;
  /** humans an AI assistant sent */
  referred: number;
}

/** A UTC day's counted views of every page, by page and class in time order, by day number (dayEventsReader). */
export type ReadDayEvents = (day: number) => Promise<DayEvents>;

/**
 * A list's reader of the days at its merges' ranges' edges, each day's counted views of every page by class in time
 * order (any page and any part of it is a slice). A day whose views are all folded is read from the page days (a row
 * per page: store pageDays); a day with views waiting for the fold from its raw events, which only an index by time
 * reaches (about a microsecond for each of the day's views). Read for the days of `span` under their versions (their
 * derived rows' generation and the newest of their views not folded yet, store/read-days.ts dayVersions, read once),
 * and kept in the day cache under them, for the list's other merges; read afresh, and not kept, while a rebuild of the
 * project runs.
 */
export function dayEventsReader(params: {
  store: AnalyticsStore;
  cache: CacheLease;
  projectId: string;
  /** the ranges' extent: the days whose versions are read together */
  span: TimeRange;
}): ReadDayEvents {
  const { store, cache, projectId, span } = params;
  const [first, end] = [Math.floor(span.from / DAY_MS), Math.ceil(span.to / DAY_MS)];
  let spanVersions: Promise<Map<number, string> | null> | undefined;
  const read = new Map<number, Promise<DayEvents>>();
  const load = async (day: number): Promise<DayEvents> => {
    const versions =
      day >= first && day < end
        ? await (spanVersions ??= store.dayVersions(projectId, first, end))
        : await store.dayVersions(projectId, day, day + 1);
    if (!versions) return store.dayEvents(projectId, day);
    const version = versions.get(day);
    if (version === undefined) return { start: day * DAY_MS, pages: new Map(), bytes: 0 };
    return cache.keep(segmentKey(projectId, 'events', 1, day), version, async () => {
      const folded = settledVersion(version) ? await store.pageDays(projectId, [day]) : null;
      return folded?.get(day) ?? store.dayEvents(projectId, day);
    });
  };
  return (day) => {
    let events = read.get(day);
    if (!events) read.set(day, (events = load(day)));
    return events;
  };
}

/**
 * Exact distinct visitors of groups of pages over ranges, from those pages' own rows alone: one merge's outcome read
 * by itself (a job's outcome), whose few pages hold a sliver of the site's views. Each day of the ranges is read from
 * the page days (the pages' views of the day in time order, one statement for all the days: any part of a day a
 * slice); a day with views waiting for the fold from its raw events, the pages' alone, as is every day while a
 * rebuild of the project runs. Null while the project's page days lack views folded before they existed (until a
 * rebuild): they are counted as a list counts them then.
 */
export async function countPagesVisitors(params: {
  store: AnalyticsStore;
  projectId: string;
  ranges: readonly TimeRange[];
  groups: readonly (readonly number[])[];
}): Promise<VisitorCounts[][] | null> {
  const { store, projectId, ranges } = params;
  const pages = [...new Set(params.groups.flat())];
  const zero = () => params.groups.map(() => ({ human: 0, ai: 0, referred: 0 }));
  if (!pages.length || !ranges.length) return ranges.map(zero);
  const first = Math.floor(Math.min(...ranges.map((r) => r.from)) / DAY_MS);
  const end = Math.ceil(Math.max(...ranges.map((r) => r.to)) / DAY_MS);
  const versions = await store.dayVersions(projectId, first, end);
  const days = versions ? [...versions.keys()] : Array.from({ length: end - first }, (_, i) => first + i);
  const settled = versions ? days.filter((day) => settledVersion(versions.get(day)!)) : [];
  const folded = settled.length ? await store.pageDays(projectId, settled, pages) : new Map<number, DayEvents>();
  if (!folded) return null;
  const read = new Map<number, DayEvents>(folded);
  for (const day of days) if (!read.has(day)) read.set(day, await dayEventsOfPages(store, projectId, day, pages));
  const columns = ['human', 'ai', 'referred'] as const;
  const built: Bitmap[] = [];
  try {
    return ranges.map((range) => {
      const visitors = new Map(pages.map((page) => [page, columns.map(() => new RoaringBitmap32())]));
      built.push(...[...visitors.values()].flat());
      for (let day = Math.floor(range.from / DAY_MS); day * DAY_MS < range.to; day++) {
        const events = read.get(day);
        if (events) addDayVisitors(events, range, visitors);
      }
      return groupCounts(params.groups, visitors);
    });
  } finally {
    for (const bitmap of built) bitmap.dispose();
  }
}

/** Some pages' raw events of a day, any number of them (IN lists of IN_CHUNK pages) as one DayEvents. */
async function dayEventsOfPages(
  store: AnalyticsStore,
  projectId: string,
  day: number,
  pages: readonly number[],
): Promise<DayEvents> {
  const all: DayEvents = { start: day * DAY_MS, pages: new Map(), bytes: 0 };
  for (const some of inChunks([...pages])) {
    const events = await store.dayEvents(projectId, day, some);
    for (const [page, found] of events.pages) all.pages.set(page, found);
    all.bytes += events.bytes;
  }
  return all;
}

/** Each page's visitors by class: human, AI, humans an assistant sent. */
type PageVisitors = Map<number, Bitmap[]>;

/** Adds each page's visitors who viewed within `range` of a day to `visitors` (other pages' views passed over). */
function addDayVisitors(events: DayEvents, range: TimeRange, visitors: PageVisitors): void {
  for (const [page, [human, ai, referred]] of visitors) {
    const found = events.pages.get(page);
    if (!found) continue;
    addWithin(found.human, events.start, range, human);
    addWithin(found.ai, events.start, range, ai);
    addWithin(found.referred, events.start, range, referred);
  }
}

/** Each group's distinct visitors by class: its pages' visitors united, a visitor of several of them once. */
function groupCounts(groups: readonly (readonly number[])[], visitors: PageVisitors): VisitorCounts[] {
  return groups.map((group) => {
    const [human, ai, referred] = [0, 1, 2].map((i) => {
      const members = group.map((page) => visitors.get(page)![i]);
      if (members.length === 1) return members[0].size;
      const union = RoaringBitmap32.orMany(members);
      const size = union.size;
      union.dispose();
      return size;
    });
    return { human, ai, referred };
  });
}

/** Adds the visitors who viewed within [from, to) of the day that began at `start` (times ascending). */
function addWithin(timed: TimedVisitors, start: number, range: TimeRange, into: Bitmap): void {
  const first = lowerBound(timed.at, range.from - start);
  const end = lowerBound(timed.at, range.to - start);
  if (end > first) into.addMany(timed.visitors.subarray(first, end));
}

function lowerBound(sorted: Uint32Array, value: number): number {
  let [lo, hi] = [0, sorted.length];
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Exact distinct visitors of groups of pages over a range, a visitor of several pages of a group once: as the
 * visitors report answers a range (store/split-range.ts planRange), its whole days from the day sets and the agent
 * rollup's cells (humans an assistant sent), the partial days at its edges from the raw events of those days
 * (dayEventsReader). Each page's visitors are taken from its own containers alone, so the cost follows the pages'
 * visitors, not the site's.
 */
export async function countGroupVisitors(params: {
  store: AnalyticsStore;
  cache: CacheLease;
  projectId: string;
  range: TimeRange;
  groups: readonly (readonly number[])[];
  /** the raw events of a day at an edge; dayEventsReader's when absent */
  dayEvents?: ReadDayEvents;
}): Promise<VisitorCounts[]> {
  const pages = [...new Set(params.groups.flat())];
  if (!pages.length) return params.groups.map(() => ({ human: 0, ai: 0, referred: 0 }));
  const columns = ['human', 'ai', 'referred'] as const;
  const visitors = new Map(pages.map((page) => [page, columns.map(() => new RoaringBitmap32())]));
  const built: Bitmap[] = [...visitors.values()].flat();
  const masks = pageMasks(pages);
  try {
    // whole days are united per part in (page, visitor) pair space, cut to the pages' containers, and turned into
    // each page's visitor ids once per part (not once per day)
    const cut = columns.map(() => new Map<number, Bitmap[]>());
    const addParts = (column: number, parts: Iterable<[number, Bitmap | Bitmap[]]>) => {
      for (const [part, bitmaps] of parts) {
        const mask = masks.of(part);
        if (!mask) continue;
        for (const bitmap of Array.isArray(bitmaps) ? bitmaps : [bitmaps]) {
          const kept = RoaringBitmap32.and(bitmap, mask);
          built.push(kept);
          const list = cut[column].get(part);
          if (list) list.push(kept);
          else cut[column].set(part, [kept]);
        }
      }
    };
    // the day sets and the agent cells read the range by one plan (one snapshot: the same either way)
    const ranged = { ...params, store: await plannedOnce(params.store, params.projectId, params.range) };
    const sets = await daySetSegments(ranged);
    for (const segment of sets.segments) {
      addParts(0, segment.sets.get(KIND.human) ?? []);
      addParts(1, segment.sets.get(KIND.ai) ?? []);
    }
    // humans an assistant sent: the rollup's `via <assistant>` cells
    for (const segment of (await agentCellSegments(ranged)).segments)
      for (const data of segment.cells.values())
        if (data.cell.kind === KIND.human && data.cell.agent.startsWith(VIA_PREFIX)) addParts(2, data.parts);
    cut.forEach((byPart, column) => {
      for (const [part, list] of byPart) {
        const union = list.length === 1 ? list[0] : RoaringBitmap32.orMany(list);
        if (list.length > 1) built.push(union);
        for (const page of pages) addPageVisitors(part, union, page, visitors.get(page)![column]);
      }
    });
    // the edges (partial or not yet folded days, or the whole range while a rebuild runs): each day's part of them
    const dayEvents = params.dayEvents ?? dayEventsReader({ ...params, span: params.range });
    for (const edge of sets.edges)
      for (let day = Math.floor(edge.from / DAY_MS); day * DAY_MS < edge.to; day++) {
        addDayVisitors(await dayEvents(day), edge, visitors);
      }
    return groupCounts(params.groups, visitors);
  } finally {
    for (const bitmap of built) bitmap.dispose();
    masks.dispose();
  }
}

/**
 * countGroupVisitors over several ranges of the same groups (an outcome's windows, both sides): each UTC day at the
 * ranges' edges is read once for all of them. One merge read alone counts them from its pages' rows
 * (countPagesVisitors).
 */
export async function countGroupVisitorsMany(params: {
  store: AnalyticsStore;
  cache: CacheLease;
  projectId: string;
  ranges: readonly TimeRange[];
  groups: readonly (readonly number[])[];
  /** one merge read alone (a job's outcome), not one of a list's many */
  alone?: boolean;
}): Promise<VisitorCounts[][]> {
  const alone = params.alone ? await countPagesVisitors(params) : null;
  if (alone) return alone;
  const span = {
    from: Math.min(...params.ranges.map((r) => r.from)),
    to: Math.max(...params.ranges.map((r) => r.to)),
  };
  const dayEvents = dayEventsReader({ ...params, span });
  const out: VisitorCounts[][] = [];
  for (const range of params.ranges) out.push(await countGroupVisitors({ ...params, range, dayEvents }));
  return out;
}
