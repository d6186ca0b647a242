import type { Sql } from '../../store/sql.js';
import type { FeedbackFilter } from '../feedback-filter.js';
import { codePointCollation } from './code-point-order.js';
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

/** Feedback counts per page, most feedback first, then path in code-point order, after the keyset position when given. */
export async function selectFeedbackCountsByPage(
  sql: Sql,
  params: { window: ListWindow; filter: FeedbackFilter; after: PageCountsKey | undefined; limit: number },
): Promise<PageFeedbackCounts[]> {
  const binary = codePointCollation(sql);
  const { from, where, params: values } = feedbackWhere(params.window, params.filter);
  const having: string[] = [];
  if (params.after) {
    having.push(`HAVING COUNT(*) < ? OR (COUNT(*) = ? AND "path" COLLATE ${binary} > ?)`);
    values.push(params.after[0], params.after[0], params.after[1]);
  }
  const rows = await sql.query<Record<string, unknown>>(
    `SELECT "path", SUM(CASE WHEN ${VOTES} AND "helpful" = 1 THEN 1 ELSE 0 END) AS up, SUM(CASE WHEN ${VOTES} AND "helpful" = 0 THEN 1 ELSE 0 END) AS down, ` +
      `SUM(CASE WHEN "source" = 'code_snippet' THEN 1 ELSE 0 END) AS code, COUNT(*) AS total FROM ${from} WHERE ${where.join(' AND ')} ` +
      `GROUP BY "path" ${having.join(' ')} ORDER BY total DESC, "path" COLLATE ${binary} ASC LIMIT ?`,
    [...values, params.limit],
  );
  return rows.map((r) => ({
    path: String(r.path),
    thumbsUp: Number(r.up),
    thumbsDown: Number(r.down),
    code: Number(r.code),
    total: Number(r.total),
  }));
}
