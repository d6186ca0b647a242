import { DAY_MS, type TimeRange } from '../../calendar.js';
import { inChunks, type Param, type Sql } from '../store/sql.js';
import { compareCodePoints } from './compare-code-points.js';
import {
  columnsOf,
  lowerBound,
  pageViewsBytes,
  type DayEvents,
  type PageDayViews,
  type TimedVisitors,
} from '../store/page-day-views.js';
import { type Purpose, purposeOf } from '../store/rollups/agent-columns.js';
import { dayVersions, settledVersion } from '../store/read-days.js';
import { dayEvents } from '../store/read-events.js';
import { pageDays } from '../store/rollups/page-days.js';
import type { Cached, DayCache } from '../store/day-cache.js';
import { VOTES } from '../signals/store/thumbs-votes.js';

/** One page's (or all the pages') side of a window. */
export interface SideCounts {
  human: number;
  ai: number;
  /** distinct AI visitors by what their agent reads for (a visitor of two purposes in each) */
  aiByPurpose: Record<Purpose, number>;
  thumbsUp: number;
  thumbsDown: number;
  /** feedback entries with a comment (with a vote or without) */
  comments: number;
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
  /** site searches of the queries asked about: how many, and how many of them clicked into one of the pages; by query */
  searches: { searches: number; clicks: number; byQuery: Map<string, { searches: number; clicks: number }> };
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
 * Outcome windows of the same pages over several ranges, one per range: each page's distinct visitors and the pages'
 * together (a reader of two of them once), and each group of `together` (a moved page's old and new path), as
 * `visitors` counted them for the groups of outcomeGroups (countOutcomeVisitors, one list per range); the pages'
 * thumbs and comments and the URLs' misses (readOutcomeSignals, every range in one read); the searches of the queries.
 */
export async function readOutcomeCounts(
  sql: Sql,
  params: {
    projectId: string;
    paths: readonly string[];
    urls: readonly string[];
    ranges: readonly TimeRange[];
    /** the queries whose searches are counted (readQueriesInto over both sides of the window) */
    queries?: readonly string[];
    /** groups of paths whose visitors are also counted together, each reader once (`WindowCounts.together`) */
    together?: readonly (readonly string[])[];
  },
  visitors: readonly (readonly VisitorCounts[])[],
): Promise<WindowCounts[]> {
  const { projectId, paths, urls, ranges } = params;
  const [signals] = await readOutcomeSignals(sql, { projectId, asks: [{ paths, urls, ranges }] });
  const together = params.together ?? [];
  const queries = params.queries ?? [];
  const side = (v: VisitorCounts, thumbs = { thumbsUp: 0, thumbsDown: 0, comments: 0 }): SideCounts => {
    const { thumbsUp, thumbsDown, comments } = thumbs;
    return { ...v, thumbsUp, thumbsDown, comments };
  };
  const out: WindowCounts[] = [];
  for (const [i, range] of ranges.entries()) {
    const counts = signals[i];
    if (paths.length || together.length) {
      for (const [j, path] of paths.entries()) counts.pages.set(path, side(visitors[i][j], counts.pages.get(path)));
      if (paths.length) counts.total = side(visitors[i][paths.length], counts.total);
      counts.together = visitors[i].slice(paths.length + 1).map((v) => side(v));
    }
    if (queries.length && paths.length) {
      const clicked = `CASE WHEN "clickedPath" IN (${paths.map(() => '?').join(', ')}) THEN 1 ELSE 0 END`;
      for (const [query, searches, clicks] of await rowsOfEach(
        sql,
        queries,
        `SELECT CAST(? AS TEXT), COUNT(*), SUM(${clicked}) FROM "AnalyticsSearch"
          WHERE "projectId" = ? AND "query" = ? AND "ts" >= ? AND "ts" < ?`,
        (query) => [query, ...paths, projectId, query, range.from, range.to],
      )) {
        const asked = { searches: Number(searches ?? 0), clicks: Number(clicks ?? 0) };
        counts.searches.byQuery.set(String(query), asked);
        counts.searches.searches += asked.searches;
        counts.searches.clicks += asked.clicks;
      }
    }
    out.push(counts);
  }
  return out;
}

/** One outcome window's pages and URLs, over some ranges: what readOutcomeSignals is asked of each merge. */
export interface SignalsAsk {
  paths: readonly string[];
  urls: readonly string[];
  ranges: readonly TimeRange[];
}

/**
 * The thumbs, comments and misses of outcome windows (every visitor count 0), one list per ask with one per range:
 * the rows are read once over the span of all the ranges, then counted per range, where a statement per window and
 * range would wait on the database a thousand times for a list's summary.
 */
export async function readOutcomeSignals(
  sql: Sql,
  params: { projectId: string; asks: readonly SignalsAsk[] },
): Promise<WindowCounts[][]> {
  const { projectId, asks } = params;
  const ranges = asks.flatMap((ask) => ask.ranges);
  if (!ranges.length) return asks.map(() => []);
  const [from, to] = [Math.min(...ranges.map((r) => r.from)), Math.max(...ranges.map((r) => r.to))];
  // per path the times of its thumbs up, its thumbs down and its comments; per URL the times of its misses. A few
  // pages' feedback along the index of each (one statement), many pages' from all the project's over the span (one
  // statement, where one per hundred pages took a tenth of a second on a fresh connection); the misses of the URLs
  // asked alone (those of every URL can be a crawler's thousands)
  const paths = new Set(asks.flatMap((ask) => ask.paths));
  const columns = `"path", "ts", CASE WHEN ${VOTES} AND "helpful" = 1 THEN 1 ELSE 0 END,
            CASE WHEN ${VOTES} AND "helpful" = 0 THEN 1 ELSE 0 END, CASE WHEN "comment" IS NOT NULL THEN 1 ELSE 0 END`;
  const feedbackRows =
    paths.size <= EACH_CHUNK
      ? await rowsOfEach(
          sql,
          [...paths],
          `SELECT ${columns} FROM "AnalyticsFeedback" WHERE "projectId" = ? AND "path" = ? AND "ts" >= ? AND "ts" < ?`,
          (path) => [projectId, path, from, to],
        )
      : await sql.rows(`SELECT ${columns} FROM "AnalyticsFeedback" WHERE "projectId" = ? AND "ts" >= ? AND "ts" < ?`, [
          projectId,
          from,
          to,
        ]);
  const feedback = new Map<string, [number[], number[], number[]]>();
  for (const [path, ts, up, down, comment] of feedbackRows) {
    if (!paths.has(String(path))) continue;
    const times = feedback.get(String(path)) ?? [[], [], []];
    feedback.set(String(path), times);
    [up, down, comment].forEach((counted, i) => {
      if (Number(counted)) times[i].push(Number(ts));
    });
  }
  const misses = new Map<string, number[]>();
  for (const [url, ts] of await rowsOfEach(
    sql,
    asks.flatMap((ask) => ask.urls),
    'SELECT "path", "ts" FROM "AnalyticsPageMiss" WHERE "projectId" = ? AND "path" = ? AND "ts" >= ? AND "ts" < ?',
    (url) => [projectId, url, from, to],
  )) {
    const times = misses.get(String(url)) ?? [];
    misses.set(String(url), times);
    times.push(Number(ts));
  }
  const sorted = (times: number[] = []) => Float64Array.from(times).sort();
  const feedbackTimes = new Map([...feedback].map(([path, times]) => [path, times.map(sorted)]));
  const missTimes = new Map([...misses].map(([url, times]) => [url, sorted(times)]));
  const within = (times: Float64Array | undefined, range: TimeRange) =>
    times ? lowerBound(times, range.to) - lowerBound(times, range.from) : 0;
  return asks.map((ask) =>
    ask.ranges.map((range) => {
      const counts: WindowCounts = {
        pages: new Map(),
        total: { ...noVisitors(), thumbsUp: 0, thumbsDown: 0, comments: 0 },
        misses: new Map(),
        searches: { searches: 0, clicks: 0, byQuery: new Map() },
        together: [],
      };
      for (const path of ask.paths) {
        const [up, down, comments] = (feedbackTimes.get(path) ?? []).map((times) => within(times, range));
        const page = { ...noVisitors(), thumbsUp: up ?? 0, thumbsDown: down ?? 0, comments: comments ?? 0 };
        counts.pages.set(path, page);
        counts.total.thumbsUp += page.thumbsUp;
        counts.total.thumbsDown += page.thumbsDown;
        counts.total.comments += page.comments;
      }
      for (const url of ask.urls) counts.misses.set(url, within(missTimes.get(url), range));
      return counts;
    }),
  );
}

/** Distinct visitors of some pages (or of several pages together), by class. */
export interface VisitorCounts {
  human: number;
  ai: number;
  aiByPurpose: Record<Purpose, number>;
  /** humans an AI assistant sent */
  referred: number;
}

/** The purposes an AI agent reads for, in the order outcomes list them (store/rollups/agent-columns.ts purposeOf). */
export const PURPOSES: readonly Purpose[] = ['searchIndex', 'training', 'assistant', 'agent', 'other'];

export const noVisitors = (): VisitorCounts => ({
  human: 0,
  ai: 0,
  aiByPurpose: { searchIndex: 0, training: 0, assistant: 0, agent: 0, other: 0 },
  referred: 0,
});

/** One page's views of one UTC day, by class and AI agent, as a cache entry. */
interface PageDay extends Cached {
  /** when the day began (epoch ms) */
  start: number;
  views: PageDayViews;
  /** `views.ai`'s agents under their purpose (purposeOf), grouped once for every count that reads them */
  aiByPurpose: Record<Purpose, TimedVisitors[]>;
  /** the largest visitor id among them (0 without views) */
  maxVisitor: number;
}

const NO_VIEWS: TimedVisitors = { at: new Uint32Array(0), visitors: new Uint32Array(0) };

function pageDayOf(start: number, found?: PageDayViews): PageDay {
  const views = found ?? { human: NO_VIEWS, referred: NO_VIEWS, ai: [] };
  let maxVisitor = 0;
  for (const { visitors } of columnsOf(views))
    for (let i = 0; i < visitors.length; i++) if (visitors[i] > maxVisitor) maxVisitor = visitors[i];
  const aiByPurpose = Object.fromEntries(PURPOSES.map((p) => [p, [] as TimedVisitors[]])) as PageDay['aiByPurpose'];
  for (const agent of views.ai) aiByPurpose[purposeOf(agent.agent || null)].push(agent);
  return { start, views, aiByPurpose, maxVisitor, bytes: pageViewsBytes(views) };
}

/**
 * Each day's views of some pages within [first, end), from the cache where held under the day's version
 * (store/read-days.ts dayVersions: a fold into the day, a rebuild or a view not folded yet changes it). What is not
 * held is read and kept: the days every view of which is folded from the page days, one statement for all of them
 * (days and pages as two `IN` lists: the primary key probed per pair); a day with views waiting for the fold from its
 * raw events, those pages' alone; while a rebuild of the project runs every day raw, and nothing kept. The page days
 * lack views folded before they existed until a rebuild (store/rollups/page-days.ts pageDays null): every day is read
 * raw then.
 */
async function viewsOfPages(params: {
  sql: Sql;
  cache: DayCache;
  projectId: string;
  first: number;
  end: number;
  pages: readonly number[];
}): Promise<Map<number, Map<number, PageDay>>> {
  const { sql, cache, projectId, first, end, pages } = params;
  const versions = await dayVersions(sql, { projectId, fromDay: first, toDay: end });
  const out = new Map<number, Map<number, PageDay>>();
  const put = (day: number, events: DayEvents, wanted: readonly number[], version?: string) => {
    const read = out.get(day) ?? new Map<number, PageDay>();
    out.set(day, read);
    for (const page of wanted) {
      const pageDay = pageDayOf(events.start, events.pages.get(page));
      if (version !== undefined) cache.set(pageDayKey(projectId, page, day), version, pageDay);
      read.set(page, pageDay);
    }
  };
  if (!versions) {
    for (let day = first; day < end; day++) put(day, await dayEventsOfPages(sql, projectId, day, pages), pages);
    return out;
  }
  const missing = new Map<number, number[]>();
  for (const [day, version] of versions) {
    const read = new Map<number, PageDay>();
    out.set(day, read);
    for (const page of pages) {
      const held = cache.get<PageDay>(pageDayKey(projectId, page, day), version);
      if (held) read.set(page, held);
      else if (missing.has(day)) missing.get(day)!.push(page);
      else missing.set(day, [page]);
    }
  }
  const settled = new Set([...missing.keys()].filter((day) => settledVersion(versions.get(day)!)));
  const settledPages = [...new Set([...settled].flatMap((day) => missing.get(day)!))];
  const folded = settled.size ? await pageDays(sql, { projectId, days: [...settled], pageIds: settledPages }) : null;
  for (const [day, wanted] of missing) {
    const events =
      folded && settled.has(day)
        ? (folded.get(day) ?? { start: day * DAY_MS, pages: new Map(), bytes: 0 })
        : await dayEventsOfPages(sql, projectId, day, wanted);
    put(day, events, wanted, versions.get(day));
  }
  return out;
}

const pageDayKey = (projectId: string, page: number, day: number) => `${projectId}:page-day:${page}:${day}`;

/**
 * Exact distinct visitors of groups of pages over ranges (an outcome's windows, both sides), a visitor of several
 * pages of a group once, from those pages' own views alone, so the cost follows the pages' readers, not the site's:
 * each page's views of each day of the ranges (viewsOfPages, kept in the day cache for the next merge that changed
 * the page), a part of a day a slice of them, each group's visitors told apart in a bitset over visitor ids.
 * `humans` alone: what a verdict reads (ai and referred are 0).
 */
export async function countOutcomeVisitors(params: {
  sql: Sql;
  cache: DayCache;
  projectId: string;
  ranges: readonly TimeRange[];
  groups: readonly (readonly number[])[];
  humans?: 'alone';
}): Promise<VisitorCounts[][]> {
  const { ranges, groups } = params;
  const pages = [...new Set(groups.flat())];
  if (!pages.length || !ranges.length) return ranges.map(() => groups.map(noVisitors));
  const first = Math.floor(Math.min(...ranges.map((r) => r.from)) / DAY_MS);
  const end = Math.ceil(Math.max(...ranges.map((r) => r.to)) / DAY_MS);
  const days = await viewsOfPages({ ...params, first, end, pages });
  let maxVisitor = 0;
  for (const read of days.values()) for (const day of read.values()) maxVisitor = Math.max(maxVisitor, day.maxVisitor);
  const bits = new Uint32Array((maxVisitor >>> 5) + 1);
  // the classes a count reads of a page's day
  type Pick = (day: PageDay) => TimedVisitors[];
  const count = (range: TimeRange, group: readonly number[], pick: Pick): number => {
    const slices: Uint32Array[] = [];
    for (let day = Math.floor(range.from / DAY_MS); day * DAY_MS < range.to; day++) {
      for (const page of group) {
        const pageDay = days.get(day)?.get(page);
        if (!pageDay) continue;
        for (const { at, visitors } of pick(pageDay)) {
          const from = lowerBound(at, range.from - pageDay.start);
          const to = lowerBound(at, range.to - pageDay.start);
          if (to > from) slices.push(visitors.subarray(from, to));
        }
      }
    }
    return distinctVisitors(slices, bits);
  };
  const human: Pick = (d) => [d.views.human];
  const ai: Pick = (d) => d.views.ai;
  const referred: Pick = (d) => [d.views.referred];
  const ofPurpose =
    (purpose: Purpose): Pick =>
    (d) =>
      d.aiByPurpose[purpose];
  return ranges.map((range) =>
    groups.map((group) => {
      const counts = noVisitors();
      counts.human = count(range, group, human);
      if (params.humans) return counts;
      counts.ai = count(range, group, ai);
      counts.referred = count(range, group, referred);
      for (const purpose of PURPOSES) counts.aiByPurpose[purpose] = count(range, group, ofPurpose(purpose));
      return counts;
    }),
  );
}

/**
 * How many distinct visitor ids the slices hold, told apart in `bits` (a bit per id, all clear, and left clear): a
 * few nanoseconds a view without a branch to mispredict, where building a bitmap from ids out of time order cost
 * about a hundred. Cleared by a second pass over a few views, else whole.
 */
function distinctVisitors(slices: readonly Uint32Array[], bits: Uint32Array): number {
  let [distinct, views] = [0, 0];
  for (const visitors of slices) {
    views += visitors.length;
    for (let i = 0; i < visitors.length; i++) {
      const word = visitors[i] >>> 5;
      const shift = visitors[i] & 31;
      const was = bits[word];
      bits[word] = was | (1 << shift);
      distinct += ((was >>> shift) & 1) ^ 1;
    }
  }
  if (views > bits.length / 8) bits.fill(0);
  else for (const visitors of slices) for (let i = 0; i < visitors.length; i++) bits[visitors[i] >>> 5] = 0;
  return distinct;
}

/** Some pages' raw events of a day, any number of them (IN lists of IN_CHUNK pages) as one DayEvents. */
async function dayEventsOfPages(
  sql: Sql,
  projectId: string,
  day: number,
  pages: readonly number[],
): Promise<DayEvents> {
  const all: DayEvents = { start: day * DAY_MS, pages: new Map(), bytes: 0 };
  for (const some of inChunks([...pages])) {
    const events = await dayEvents(sql, { projectId, day, pageIds: some });
    for (const [page, found] of events.pages) all.pages.set(page, found);
    all.bytes += events.bytes;
  }
  return all;
}
