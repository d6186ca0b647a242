import type { TimeRange } from '../../calendar.js';
import type { Sql } from '../store/sql.js';
import { KIND } from '../store/day-sets.js';
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
}

/**
 * The queries whose searches clicked into one of the pages within the range (normalised as stored), at most `limit`,
 * most searched first: the searches that led readers to the pages.
 */
export async function readQueriesInto(
  sql: Sql,
  params: { projectId: string; paths: readonly string[]; range: TimeRange; limit: number },
): Promise<string[]> {
  if (!params.paths.length) return [];
  const marks = params.paths.map(() => '?').join(', ');
  const rows = await sql.rows(
    `SELECT "query", COUNT(*) AS n FROM "AnalyticsSearch"
      WHERE "projectId" = ? AND "ts" >= ? AND "ts" < ? AND "clickedPath" IN (${marks})
      GROUP BY "query" ORDER BY n DESC, "query" LIMIT ?`,
    [params.projectId, params.range.from, params.range.to, ...params.paths, params.limit],
  );
  return rows.map(([query]) => String(query));
}

/**
 * One outcome window, read from the same stored page views, feedback and misses the page story reads: each page's
 * distinct visitors in one grouped pass over the range's views, the pages together by one distinct count more (the
 * sum of the pages would count a reader of two of them twice), thumbs from the pages' feedback in one grouped read.
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
  },
): Promise<WindowCounts> {
  const { projectId, range } = params;
  const counts: WindowCounts = {
    pages: new Map(),
    total: { human: 0, ai: 0, thumbsUp: 0, thumbsDown: 0, referred: 0 },
    misses: new Map(),
    searches: { searches: 0, clicks: 0 },
  };
  if (params.paths.length) {
    const marks = params.paths.map(() => '?').join(', ');
    const from = `FROM "AnalyticsEvent" e
         JOIN "AnalyticsPage" p ON p."id" = e."pageId" AND p."projectId" = e."projectId"
        WHERE e."projectId" = ? AND p."path" IN (${marks}) AND e."ts" >= ? AND e."ts" < ?
          AND e."kind" IN (${KIND.human}, ${KIND.ai})`;
    const args = [projectId, ...params.paths, range.from, range.to];
    const referred = `COUNT(DISTINCT CASE WHEN e."kind" = ${KIND.human} AND e."agent" LIKE 'via %' THEN e."visitorId" END)`;
    // every page in one pass over the range's views, and the pages together in one more (a reader of two once)
    for (const path of params.paths)
      counts.pages.set(path, { human: 0, ai: 0, thumbsUp: 0, thumbsDown: 0, referred: 0 });
    for (const [path, kind, n, sent] of await sql.rows(
      `SELECT p."path", e."kind", COUNT(DISTINCT e."visitorId"), ${referred} ${from} GROUP BY p."path", e."kind"`,
      args,
    )) {
      const page = counts.pages.get(String(path))!;
      page[Number(kind) === KIND.ai ? 'ai' : 'human'] = Number(n);
      page.referred += Number(sent);
    }
    for (const [kind, n, sent] of await sql.rows(
      `SELECT e."kind", COUNT(DISTINCT e."visitorId"), ${referred} ${from} GROUP BY e."kind"`,
      args,
    )) {
      counts.total[Number(kind) === KIND.ai ? 'ai' : 'human'] = Number(n);
      counts.total.referred += Number(sent);
    }
    for (const [path, up, down] of await sql.rows(
      `SELECT "path", SUM(CASE WHEN ${VOTES} AND "helpful" = 1 THEN 1 ELSE 0 END),
              SUM(CASE WHEN ${VOTES} AND "helpful" = 0 THEN 1 ELSE 0 END)
         FROM "AnalyticsFeedback"
        WHERE "projectId" = ? AND "path" IN (${marks}) AND "ts" >= ? AND "ts" < ? GROUP BY "path"`,
      args,
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
    const [row] = await sql.rows(
      `SELECT COUNT(*), SUM(CASE WHEN "clickedPath" IN (${params.paths.map(() => '?').join(', ')}) THEN 1 ELSE 0 END)
         FROM "AnalyticsSearch"
        WHERE "projectId" = ? AND "ts" >= ? AND "ts" < ? AND "query" IN (${queries.map(() => '?').join(', ')})`,
      [...params.paths, projectId, range.from, range.to, ...queries],
    );
    counts.searches = { searches: Number(row?.[0] ?? 0), clicks: Number(row?.[1] ?? 0) };
  }
  for (const url of params.urls) {
    const [missing] = await readMissingPages(sql, { projectId, range, path: url });
    counts.misses.set(url, missing?.requests ?? 0);
  }
  return counts;
}
