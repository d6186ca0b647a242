import { RangeCounts, readDayCounts } from '../../store/day-counts.js';
import type { Sql } from '../../store/sql.js';
import { compareCodePoints } from '../../reports/compare-code-points.js';
import { weightedPage } from '../../reports/weighted-page.js';
import type { FeedbackFilter } from '../feedback-filter.js';
import { feedbackWhere } from './feedback-where.js';
import type { ListWindow } from './list-window.js';
import { VOTES } from './thumbs-votes.js';
import { daysChangedSince, daysStoredSince, FEEDBACK_COUNTS, rawRanges, splitWindow } from './signal-rollups.js';

/** One page's feedback counts: thumbs votes, code snippet feedback, and all feedback. */
export interface PageFeedbackCounts {
  path: string;
  thumbsUp: number;
  thumbsDown: number;
  code: number;
  total: number;
}

/** keyset position of the last page a listing returned: its total, then its path */
export type PageCountsKey = [number, string];

/**
 * Feedback counts per page, most feedback first, then path in code-point order, after the keyset position when given.
 * Whole days come from the per-day counts (one GROUP BY), the partial days at the edges and days with
 * entries stored or changed since the listing's first page from the entries as they stood then; read in one
 * snapshot, so no write falls between finding those days and reading.
 */
export function selectFeedbackCountsByPage(
  sql: Sql,
  params: { window: ListWindow; filter: FeedbackFilter; after: PageCountsKey | undefined; limit: number },
): Promise<PageFeedbackCounts[]> {
  const { window, filter } = params;
  return sql.snapshot(async (tx) => {
    const stale = [
      ...(await daysStoredSince(tx, { table: 'AnalyticsFeedback', window })),
      ...(await daysChangedSince(tx, window)),
    ];
    const split = splitWindow(window, stale);
    const tally = split.days
      ? await readDayCounts(tx, {
          family: FEEDBACK_COUNTS,
          projectId: window.projectId,
          fromDay: split.days[0],
          toDay: split.days[1],
          skip: new Set(split.stale),
        })
      : new RangeCounts(FEEDBACK_COUNTS);
    const raw = rawRanges(split);
    if (raw.params.length) {
      const { from, where, params: values } = feedbackWhere(window, filter);
      const rows = await tx.rows(
        `SELECT "path", "source", "status", SUM(CASE WHEN ${VOTES} AND "helpful" = 1 THEN 1 ELSE 0 END),
                SUM(CASE WHEN ${VOTES} AND "helpful" = 0 THEN 1 ELSE 0 END), COUNT(*)
           FROM ${from} WHERE ${where.join(' AND ')} AND ${raw.where} GROUP BY "path", "source", "status"`,
        [...values, ...raw.params],
      );
      for (const [path, source, status, up, down, total] of rows)
        tally.add([path as string, source as string, status as string], [Number(up), Number(down), Number(total)]);
    }
    return pageOfPaths(tally, filter, params);
  });
}

/** The tally's feedback added up per page under the filter, and the page of pages after the keyset position. */
function pageOfPaths(
  tally: RangeCounts,
  filter: FeedbackFilter,
  params: { after: PageCountsKey | undefined; limit: number },
): PageFeedbackCounts[] {
  const [up, down, total] = tally.values;
  const statuses = filter.status?.length ? new Set<string>(filter.status) : undefined;
  const pages = new Map<string, PageFeedbackCounts>();
  for (const id of tally.present) {
    const [path, source, status] = tally.keys.key(id) as [string, string, string];
    if ((filter.source && source !== filter.source) || (statuses && !statuses.has(status)) || !total[id]) continue;
    if (filter.path !== undefined && path !== filter.path) continue;
    let page = pages.get(path);
    if (!page) pages.set(path, (page = { path, thumbsUp: 0, thumbsDown: 0, code: 0, total: 0 }));
    page.thumbsUp += up[id];
    page.thumbsDown += down[id];
    page.code += source === 'code_snippet' ? total[id] : 0;
    page.total += total[id];
  }
  const { after } = params;
  const rows = [...pages.values()].filter(
    (p) => !after || p.total < after[0] || (p.total === after[0] && compareCodePoints(p.path, after[1]) > 0),
  );
  return weightedPage(
    rows,
    (p) => p.total,
    (a, b) => compareCodePoints(a.path, b.path),
    { offset: 0, limit: params.limit },
  ).rows;
}
