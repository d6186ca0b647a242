import type { TimeRange } from '../../calendar.js';
import type { Sql } from '../store/sql.js';
import { VOTES } from '../signals/store/thumbs-votes.js';

/** What readers said on one page, and what they searched before they came to it. */
export interface PageReaderSignals {
  thumbsUp: number;
  thumbsDown: number;
  /** newest first, at most `comments` */
  comments: { id: number; comment: string; helpful: boolean | null; status: string; ts: number }[];
  /** search terms whose result readers clicked to reach the page, most clicks first */
  searches: { query: string; clicks: number }[];
}

export async function readPageReaderSignals(
  sql: Sql,
  params: { projectId: string; path: string; range: TimeRange; comments?: number },
): Promise<PageReaderSignals> {
  const args = [params.projectId, params.path, params.range.from, params.range.to];
  const where = 'WHERE "projectId" = ? AND "path" = ? AND "ts" >= ? AND "ts" < ?';
  const [[up, down]] = await sql.rows(
    `SELECT SUM(CASE WHEN ${VOTES} AND "helpful" = 1 THEN 1 ELSE 0 END), SUM(CASE WHEN ${VOTES} AND "helpful" = 0 THEN 1 ELSE 0 END)
       FROM "AnalyticsFeedback" ${where}`,
    args,
  );
  const comments = await sql.rows(
    `SELECT "id", "comment", "helpful", "status", "ts" FROM "AnalyticsFeedback" ${where} AND "comment" IS NOT NULL
      ORDER BY "id" DESC LIMIT ${Math.floor(params.comments ?? 50)}`,
    args,
  );
  const searches = await sql.rows(
    `SELECT "query", COUNT(*) FROM "AnalyticsSearch" WHERE "projectId" = ? AND "clickedPath" = ? AND "ts" >= ? AND "ts" < ?
      GROUP BY "query" ORDER BY COUNT(*) DESC, "query" LIMIT 50`,
    args,
  );
  return {
    thumbsUp: Number(up ?? 0),
    thumbsDown: Number(down ?? 0),
    comments: comments.map(([id, comment, helpful, status, ts]) => ({
      id: Number(id),
      comment: comment as string,
      helpful: helpful === null ? null : Number(helpful) === 1,
      status: status as string,
      ts: Number(ts),
    })),
    searches: searches.map(([query, clicks]) => ({ query: query as string, clicks: Number(clicks) })),
  };
}
