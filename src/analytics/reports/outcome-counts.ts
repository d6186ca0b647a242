import type { TimeRange } from '../../calendar.js';
import type { Sql } from '../store/sql.js';
import { KIND } from '../store/day-sets.js';
import { readMissingPages } from './missing-pages.js';
import { readPageReaderSignals } from './page-reader-signals.js';
import { readPageTraffic } from './page-traffic.js';

/** What one window says about some pages: exact distinct visitors, thumbs, and the misses of some URLs. */
export interface WindowCounts {
  /** distinct visitors of each page, and of all of them together (a visitor of two pages counts once) */
  pages: Map<string, { human: number; ai: number; thumbsUp: number; thumbsDown: number }>;
  total: { human: number; ai: number; thumbsUp: number; thumbsDown: number };
  /** requests that got 404/410 per URL asked about */
  misses: Map<string, number>;
}

/**
 * One outcome window, read from the same stored page views, feedback and misses the page story reads: per page from
 * its own reports, the pages together by one distinct count over their views (the sum of the pages would count a
 * reader of two of them twice).
 */
export async function readOutcomeCounts(
  sql: Sql,
  params: { projectId: string; paths: readonly string[]; urls: readonly string[]; range: TimeRange },
): Promise<WindowCounts> {
  const { projectId, range } = params;
  const counts: WindowCounts = {
    pages: new Map(),
    total: { human: 0, ai: 0, thumbsUp: 0, thumbsDown: 0 },
    misses: new Map(),
  };
  for (const path of params.paths) {
    const traffic = await readPageTraffic(sql, { projectId, path, range });
    const said = await readPageReaderSignals(sql, { projectId, path, range, comments: 0 });
    counts.pages.set(path, { ...traffic.totals, thumbsUp: said.thumbsUp, thumbsDown: said.thumbsDown });
    counts.total.thumbsUp += said.thumbsUp;
    counts.total.thumbsDown += said.thumbsDown;
  }
  if (params.paths.length) {
    const marks = params.paths.map(() => '?').join(', ');
    for (const [kind, n] of await sql.rows(
      `SELECT e."kind", COUNT(DISTINCT e."visitorId") FROM "AnalyticsEvent" e
         JOIN "AnalyticsPage" p ON p."id" = e."pageId" AND p."projectId" = e."projectId"
        WHERE e."projectId" = ? AND p."path" IN (${marks}) AND e."ts" >= ? AND e."ts" < ?
          AND e."kind" IN (${KIND.human}, ${KIND.ai})
        GROUP BY e."kind"`,
      [projectId, ...params.paths, range.from, range.to],
    ))
      counts.total[Number(kind) === KIND.ai ? 'ai' : 'human'] = Number(n);
  }
  for (const url of params.urls) {
    const [missing] = await readMissingPages(sql, { projectId, range, path: url });
    counts.misses.set(url, missing?.requests ?? 0);
  }
  return counts;
}
