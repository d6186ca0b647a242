import type { Sql } from '../../store/sql.js';
import { compareCodePoints } from '../../reports/compare-code-points.js';
import { weightedPage } from '../../reports/weighted-page.js';
import type { FeedbackFilter } from '../feedback-filter.js';
import { feedbackWhere } from './feedback-where.js';
import type { ListWindow } from './list-window.js';
import { VOTES } from './thumbs-votes.js';

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
 * Feedback counts per page, most feedback first, then path in code-point order, after the keyset position when given:
 * one GROUP BY over the entries as they stood at the listing's first page (a month of a busy site's feedback is a
 * few tens of thousands of rows, read in tens of milliseconds).
 */
export async function selectFeedbackCountsByPage(
  sql: Sql,
  params: { window: ListWindow; filter: FeedbackFilter; after: PageCountsKey | undefined; limit: number },
): Promise<PageFeedbackCounts[]> {
  const { from, where, params: values } = feedbackWhere(params.window, params.filter);
  const rows = await sql.rows(
    `SELECT "path", SUM(CASE WHEN ${VOTES} AND "helpful" = 1 THEN 1 ELSE 0 END),
            SUM(CASE WHEN ${VOTES} AND "helpful" = 0 THEN 1 ELSE 0 END),
            SUM(CASE WHEN "source" = 'code_snippet' THEN 1 ELSE 0 END), COUNT(*)
       FROM ${from} WHERE ${where.join(' AND ')} GROUP BY "path"`,
    values,
  );
  const { after } = params;
  const pages = rows
    .map(([path, up, down, code, total]) => ({
      path: path as string,
      thumbsUp: Number(up),
      thumbsDown: Number(down),
      code: Number(code),
      total: Number(total),
    }))
    .filter((p) => !after || p.total < after[0] || (p.total === after[0] && compareCodePoints(p.path, after[1]) > 0));
  return weightedPage(
    pages,
    (p) => p.total,
    (a, b) => compareCodePoints(a.path, b.path),
    { offset: 0, limit: params.limit },
  ).rows;
}
