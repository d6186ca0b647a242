import type { Sql } from '../../store/sql.js';
import { VOTES } from './thumbs-votes.js';

/**
 * A page's feedback in a window: rows after a row id that arrived since a time. Thumbs count `contextual` and
 * `thumbs_only` votes, as the by-page listing does; comments count any source.
 */
export interface PageFeedbackWindow {
  /** highest row id in the window; null when the window is empty */
  through: number | null;
  thumbsUp: number;
  thumbsDown: number;
  comments: number;
}

/** Pages whose feedback windows to read: each page's rows after its own `afterId` that arrived since `receivedSince`. */
export interface PageWindowsQuery {
  projectId: string;
  /** epoch ms */
  receivedSince: number;
  pages: { path: string; afterId: number }[];
}

/** A page's window up to row `throughId`, and how many of its newest comments to read. */
export interface PageCommentsQuery {
  projectId: string;
  path: string;
  afterId: number;
  throughId: number;
  receivedSince: number;
  limit: number;
}

export interface PageComment {
  id: number;
  ts: number;
  helpful: boolean | null;
  comment: string;
}

/**
 * Feedback windows of several pages in one read: each page's rows after its own `afterId` that arrived since
 * `receivedSince` (epoch ms). Pages without such rows get an empty window.
 */
export async function selectPageWindows(sql: Sql, params: PageWindowsQuery): Promise<Map<string, PageFeedbackWindow>> {
  const windows = new Map<string, PageFeedbackWindow>(
    params.pages.map((p) => [p.path, { through: null, thumbsUp: 0, thumbsDown: 0, comments: 0 }]),
  );
  if (!params.pages.length) return windows;
  const after = new Map(params.pages.map((p) => [p.path, p.afterId]));
  const rows = await sql.rows(
    `SELECT "path", "id", CASE WHEN ${VOTES} THEN "helpful" END, CASE WHEN "comment" IS NULL THEN 0 ELSE 1 END FROM "AnalyticsFeedback" ` +
      `WHERE "projectId" = ? AND "id" > ? AND "receivedAt" >= ? AND "path" IN (${params.pages.map(() => '?').join(', ')})`,
    [params.projectId, Math.min(...after.values()), params.receivedSince, ...after.keys()],
  );
  for (const [path, rawId, helpful, comment] of rows) {
    const id = Number(rawId);
    const window = windows.get(path as string)!;
    if (id <= after.get(path as string)!) continue;
    window.through = Math.max(window.through ?? 0, id);
    if (helpful !== null && Number(helpful) === 1) window.thumbsUp++;
    else if (helpful !== null) window.thumbsDown++;
    window.comments += Number(comment);
  }
  return windows;
}

/** A page's thumbs up and down of all time. */
export async function selectPageThumbs(
  sql: Sql,
  params: { projectId: string; path: string },
): Promise<{ thumbsUp: number; thumbsDown: number }> {
  const [r] = await sql.query<{ up: unknown; down: unknown }>(
    `SELECT SUM(CASE WHEN ${VOTES} AND "helpful" = 1 THEN 1 ELSE 0 END) AS up, SUM(CASE WHEN ${VOTES} AND "helpful" = 0 THEN 1 ELSE 0 END) AS down ` +
      'FROM "AnalyticsFeedback" WHERE "projectId" = ? AND "path" = ?',
    [params.projectId, params.path],
  );
  return { thumbsUp: Number(r.up ?? 0), thumbsDown: Number(r.down ?? 0) };
}

/** The newest comments on a page among the rows after `afterId` up to `throughId` that arrived since `receivedSince`, newest first. */
export async function selectPageComments(sql: Sql, params: PageCommentsQuery): Promise<PageComment[]> {
  const rows = await sql.query<Record<string, unknown>>(
    'SELECT "id", "ts", "helpful", "comment" FROM "AnalyticsFeedback" WHERE "projectId" = ? AND "path" = ? AND "id" > ? AND "id" <= ? AND "receivedAt" >= ? ' +
      'AND "comment" IS NOT NULL ORDER BY "id" DESC LIMIT ?',
    [params.projectId, params.path, params.afterId, params.throughId, params.receivedSince, params.limit],
  );
  return rows.map((r) => ({
    id: Number(r.id),
    ts: Number(r.ts),
    helpful: r.helpful === null ? null : Number(r.helpful) === 1,
    comment: String(r.comment),
  }));
}
