import type { TimeRange } from '../../calendar.js';
import type { Sql } from '../store/sql.js';
import { VOTES } from '../signals/store/thumbs-votes.js';

/** A page's feedback still waiting for someone (`pending`) that says something is wrong with it. */
export interface NegativeFeedback {
  path: string;
  /** distinct visitors behind those entries (an entry without a visitor id counts as one) */
  readers: number;
  /** pending thumbs-down votes */
  thumbsDown: number;
  /** thumbs-up votes of the range, whatever their status: the other side of the scale */
  thumbsUp: number;
  /** pending comments not given with a thumbs up, newest first, verbatim */
  comments: { id: number; comment: string; helpful: boolean | null; ts: number }[];
  firstSeen: number;
  lastSeen: number;
}

/** A pending thumbs-down vote, or a pending comment that came without a thumbs up. */
const NEGATIVE = `"status" = 'pending' AND ((${VOTES} AND "helpful" = 0) OR ("comment" IS NOT NULL AND ("helpful" IS NULL OR "helpful" = 0)))`;

/** Pages with negative pending feedback in the range (or the one `path`), most readers first, then path. */
export async function readNegativeFeedback(
  sql: Sql,
  params: { projectId: string; range: TimeRange; path?: string; comments?: number },
): Promise<NegativeFeedback[]> {
  const where = `WHERE "projectId" = ? AND "ts" >= ? AND "ts" < ?${params.path === undefined ? '' : ' AND "path" = ?'}`;
  const args = [
    params.projectId,
    params.range.from,
    params.range.to,
    ...(params.path === undefined ? [] : [params.path]),
  ];
  const rows = await sql.rows(
    `SELECT "path",
        COUNT(DISTINCT CASE WHEN ${NEGATIVE} THEN "visitorHash" END),
        SUM(CASE WHEN ${NEGATIVE} AND "visitorHash" IS NULL THEN 1 ELSE 0 END),
        SUM(CASE WHEN ${NEGATIVE} AND ${VOTES} AND "helpful" = 0 THEN 1 ELSE 0 END),
        SUM(CASE WHEN ${VOTES} AND "helpful" = 1 THEN 1 ELSE 0 END),
        SUM(CASE WHEN ${NEGATIVE} THEN 1 ELSE 0 END),
        MIN(CASE WHEN ${NEGATIVE} THEN "ts" END), MAX(CASE WHEN ${NEGATIVE} THEN "ts" END)
       FROM "AnalyticsFeedback" ${where} GROUP BY "path"`,
    args,
  );
  const pages = new Map<string, NegativeFeedback>();
  for (const [path, hashed, unhashed, down, up, negative, first, last] of rows) {
    if (!Number(negative)) continue;
    pages.set(path as string, {
      path: path as string,
      readers: Number(hashed) + Number(unhashed),
      thumbsDown: Number(down),
      thumbsUp: Number(up),
      comments: [],
      firstSeen: Number(first),
      lastSeen: Number(last),
    });
  }
  const limit = params.comments ?? 20;
  // each page's newest `limit` comments, chosen by the database (a busy site has tens of thousands pending)
  const comments = await sql.rows(
    `SELECT "path", "id", "comment", "helpful", "ts" FROM (
       SELECT "path", "id", "comment", "helpful", "ts", ROW_NUMBER() OVER (PARTITION BY "path" ORDER BY "id" DESC) AS "n"
         FROM "AnalyticsFeedback" ${where} AND ${NEGATIVE} AND "comment" IS NOT NULL) AS "newest"
      WHERE "n" <= ? ORDER BY "id" DESC`,
    [...args, limit],
  );
  for (const [path, id, comment, helpful, ts] of comments) {
    const page = pages.get(path as string);
    if (!page) continue;
    page.comments.push({
      id: Number(id),
      comment: comment as string,
      helpful: helpful === null ? null : Number(helpful) === 1,
      ts: Number(ts),
    });
  }
  return [...pages.values()].sort((a, b) => b.readers - a.readers || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
