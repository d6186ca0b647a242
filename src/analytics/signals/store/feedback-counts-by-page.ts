import type { Param, Sql } from '../../store/sql.js';
import type { FeedbackFilter } from '../feedback-filter.js';
import { codePointCollation } from './code-point-order.js';
import { feedbackWhere } from './feedback-where.js';
import type { ListWindow } from './list-window.js';
import { VOTES } from './thumbs-votes.js';
import { countedDays, daysChangedSince, daysStoredSince, rawRanges, splitWindow } from './signal-rollups.js';

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
 * Whole days come from the per-day counts, the partial days at the edges and days with entries stored or changed
 * since the listing's first page from the entries as they stood then; read under the write lock, so no write falls
 * between finding those days and reading.
 */
export function selectFeedbackCountsByPage(
  sql: Sql,
  params: { window: ListWindow; filter: FeedbackFilter; after: PageCountsKey | undefined; limit: number },
): Promise<PageFeedbackCounts[]> {
  return sql.transaction(async (tx) => {
    const { window, filter } = params;
    const stale = [
      ...(await daysStoredSince(tx, { table: 'AnalyticsFeedback', window })),
      ...(await daysChangedSince(tx, window)),
    ];
    const split = splitWindow(window, stale);
    const binary = codePointCollation(tx);
    const { from, where, params: values } = feedbackWhere(window, filter);
    const raw = rawRanges(split);
    const days = countedDays(split);
    const counted = ['"projectId" = ?', days.where];
    const countedParams: Param[] = [window.projectId, ...days.params];
    if (filter.source) {
      counted.push('"source" = ?');
      countedParams.push(filter.source);
    }
    if (filter.status?.length) {
      counted.push(`"status" IN (${filter.status.map(() => '?').join(', ')})`);
      countedParams.push(...filter.status);
    }
    const having: string[] = [];
    const havingParams: Param[] = [];
    if (params.after) {
      having.push(`HAVING SUM("total") < ? OR (SUM("total") = ? AND "path" COLLATE ${binary} > ?)`);
      havingParams.push(params.after[0], params.after[0], params.after[1]);
    }
    const code = `CASE WHEN "source" = 'code_snippet' THEN 1 ELSE 0 END`;
    const rows = await tx.query<Record<string, unknown>>(
      `SELECT "path", SUM("up") AS up, SUM("down") AS down, SUM("code") AS code, SUM("total") AS total FROM (` +
        `SELECT "path", CASE WHEN ${VOTES} AND "helpful" = 1 THEN 1 ELSE 0 END AS "up", CASE WHEN ${VOTES} AND "helpful" = 0 THEN 1 ELSE 0 END AS "down", ` +
        `${code} AS "code", 1 AS "total" FROM ${from} WHERE ${where.join(' AND ')} AND ${raw.where} ` +
        'UNION ALL ' +
        `SELECT "path", "up", "down", CASE WHEN "source" = 'code_snippet' THEN "total" ELSE 0 END, "total" FROM "AnalyticsDayFeedback" WHERE ${counted.join(' AND ')}` +
        `) u GROUP BY "path" ${having.join(' ')} ORDER BY total DESC, "path" COLLATE ${binary} ASC LIMIT ?`,
      [...values, ...raw.params, ...countedParams, ...havingParams, params.limit],
    );
    return rows.map((r) => ({
      path: String(r.path),
      thumbsUp: Number(r.up),
      thumbsDown: Number(r.down),
      code: Number(r.code),
      total: Number(r.total),
    }));
  });
}
