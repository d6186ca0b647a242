import type { Param, Sql } from '../sql.js';
import type { FeedbackSource, FeedbackStatus } from './signal-schemas.js';

export interface NewFeedback {
  ts: number;
  path: string;
  source: FeedbackSource;
  helpful: boolean | null;
  comment: string | null;
  contact: string | null;
  code: string | null;
  filename: string | null;
  lang: string | null;
  visitorHash: string | null;
  key: string | null;
}

export interface StoredFeedback extends Omit<NewFeedback, 'visitorHash' | 'key'> {
  id: number;
  status: FeedbackStatus;
}

export interface NewSearch {
  ts: number;
  query: string;
  clickedPath: string | null;
  visitorHash: string | null;
  key: string | null;
}

/** Per-visitor limit: at most `max` new rows since `since` (receive time) from one visitor hash. */
export interface VisitorLimit {
  since: number;
  max: number;
}

/** What became of one submission. */
export type StoreOutcome = 'stored' | 'updated' | 'duplicate' | 'rate limited';

/** One submission's fate, with the row it was stored in (stored or updated) and whether it brought a comment the row did not have. */
export interface StoreResult {
  outcome: StoreOutcome;
  id: number | null;
  newComment: boolean;
}

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

export interface PageComment {
  id: number;
  ts: number;
  helpful: boolean | null;
  comment: string;
}

export interface ListFilter {
  projectId: string;
  from: number;
  to: number;
  /** highest row id included */
  snapshot: number;
  source?: FeedbackSource;
  statuses?: FeedbackStatus[];
}

/** feedback rows whose `helpful` is a thumbs vote */
const VOTES = `"source" IN ('contextual', 'thumbs_only')`;

const FEEDBACK_COLUMNS = '"id", "ts", "path", "source", "status", "helpful", "comment", "contact", "code", "filename", "lang"';

function storedFeedback(r: Record<string, unknown>): StoredFeedback {
  return {
    id: Number(r.id),
    ts: Number(r.ts),
    path: String(r.path),
    source: r.source as FeedbackSource,
    status: r.status as FeedbackStatus,
    helpful: r.helpful === null ? null : Number(r.helpful) === 1,
    comment: r.comment as string | null,
    contact: r.contact as string | null,
    code: r.code as string | null,
    filename: r.filename as string | null,
    lang: r.lang as string | null,
  };
}

/** The feedback and search tables, through the analytics connection (writes hold its write lock). */
export class SignalStore {
  /** code-point order on both databases: the order keyset cursors compare in */
  private readonly binary: string;

  constructor(private readonly sql: Sql) {
    this.binary = sql.provider === 'sqlite' ? 'BINARY' : '"C"';
  }

  /**
   * Stores feedback. With `update`, a row whose key exists already is updated (a widget's comment following its
   * vote) rather than counted again; otherwise it is a duplicate. New rows beyond the visitor limit are refused.
   */
  insertFeedback(params: { projectId: string; now: number; rows: NewFeedback[]; limit: VisitorLimit; onKey: 'skip' | 'update' }): Promise<StoreResult[]> {
    const { projectId, now, rows, limit, onKey } = params;
    return this.sql.transaction(async (tx) => {
      const outcomes: StoreResult[] = [];
      for (const f of rows) {
        if (f.key !== null && onKey === 'update') {
          const [existing] = await tx.query<{ id: unknown; comment: string | null }>('SELECT "id", "comment" FROM "AnalyticsFeedback" WHERE "projectId" = ? AND "key" = ?', [
            projectId,
            f.key,
          ]);
          if (existing) {
            await tx.run('UPDATE "AnalyticsFeedback" SET "helpful" = ?, "comment" = COALESCE(?, "comment"), "source" = ? WHERE "id" = ?', [
              f.helpful === null ? null : Number(f.helpful),
              f.comment,
              f.comment === null ? f.source : 'contextual',
              existing.id as number,
            ]);
            outcomes.push({ outcome: 'updated', id: Number(existing.id), newComment: f.comment !== null && f.comment !== existing.comment });
            continue;
          }
        }
        if (f.visitorHash !== null && (await this.recent(tx, 'AnalyticsFeedback', projectId, f.visitorHash, limit.since)) >= limit.max) {
          outcomes.push({ outcome: 'rate limited', id: null, newComment: false });
          continue;
        }
        const [inserted] = await tx.query<{ id: unknown }>(
          'INSERT INTO "AnalyticsFeedback" ("projectId", "ts", "receivedAt", "path", "source", "status", "helpful", "comment", "contact", "code", "filename", "lang", "visitorHash", "key") ' +
            'VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING "id"',
          [projectId, f.ts, now, f.path, f.source, 'pending', f.helpful === null ? null : Number(f.helpful), f.comment, f.contact, f.code, f.filename, f.lang, f.visitorHash, f.key],
        );
        outcomes.push(inserted ? { outcome: 'stored', id: Number(inserted.id), newComment: f.comment !== null } : { outcome: 'duplicate', id: null, newComment: false });
      }
      return outcomes;
    });
  }

  insertSearches(params: { projectId: string; now: number; rows: NewSearch[]; limit: VisitorLimit }): Promise<StoreOutcome[]> {
    const { projectId, now, rows, limit } = params;
    return this.sql.transaction(async (tx) => {
      const outcomes: StoreOutcome[] = [];
      for (const s of rows) {
        if (s.visitorHash !== null && (await this.recent(tx, 'AnalyticsSearch', projectId, s.visitorHash, limit.since)) >= limit.max) {
          outcomes.push('rate limited');
          continue;
        }
        const inserted = await tx.query(
          'INSERT INTO "AnalyticsSearch" ("projectId", "ts", "receivedAt", "query", "clickedPath", "visitorHash", "key") VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING "id"',
          [projectId, s.ts, now, s.query, s.clickedPath, s.visitorHash, s.key],
        );
        outcomes.push(inserted.length ? 'stored' : 'duplicate');
      }
      return outcomes;
    });
  }

  private async recent(tx: Sql, table: string, projectId: string, visitorHash: string, since: number): Promise<number> {
    const [row] = await tx.query<{ n: unknown }>(`SELECT COUNT(*) AS n FROM "${table}" WHERE "projectId" = ? AND "visitorHash" = ? AND "receivedAt" >= ?`, [
      projectId,
      visitorHash,
      since,
    ]);
    return Number(row.n);
  }

  /**
   * Feedback windows of several pages in one read: each page's rows after its own `afterId` that arrived since
   * `receivedSince` (epoch ms). Pages without such rows get an empty window.
   */
  async pageWindows(params: { projectId: string; receivedSince: number; pages: { path: string; afterId: number }[] }): Promise<Map<string, PageFeedbackWindow>> {
    const windows = new Map<string, PageFeedbackWindow>(params.pages.map((p) => [p.path, { through: null, thumbsUp: 0, thumbsDown: 0, comments: 0 }]));
    if (!params.pages.length) return windows;
    const after = new Map(params.pages.map((p) => [p.path, p.afterId]));
    const rows = await this.sql.rows(
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
  async pageThumbs(projectId: string, path: string): Promise<{ thumbsUp: number; thumbsDown: number }> {
    const [r] = await this.sql.query<{ up: unknown; down: unknown }>(
      `SELECT SUM(CASE WHEN ${VOTES} AND "helpful" = 1 THEN 1 ELSE 0 END) AS up, SUM(CASE WHEN ${VOTES} AND "helpful" = 0 THEN 1 ELSE 0 END) AS down ` +
        'FROM "AnalyticsFeedback" WHERE "projectId" = ? AND "path" = ?',
      [projectId, path],
    );
    return { thumbsUp: Number(r.up ?? 0), thumbsDown: Number(r.down ?? 0) };
  }

  /** The newest comments on a page among the rows after `afterId` up to `throughId` that arrived since `receivedSince`, newest first. */
  async pageComments(params: { projectId: string; path: string; afterId: number; throughId: number; receivedSince: number; limit: number }): Promise<PageComment[]> {
    const rows = await this.sql.query<Record<string, unknown>>(
      'SELECT "id", "ts", "helpful", "comment" FROM "AnalyticsFeedback" WHERE "projectId" = ? AND "path" = ? AND "id" > ? AND "id" <= ? AND "receivedAt" >= ? ' +
        'AND "comment" IS NOT NULL ORDER BY "id" DESC LIMIT ?',
      [params.projectId, params.path, params.afterId, params.throughId, params.receivedSince, params.limit],
    );
    return rows.map((r) => ({ id: Number(r.id), ts: Number(r.ts), helpful: r.helpful === null ? null : Number(r.helpful) === 1, comment: String(r.comment) }));
  }

  /** Sets a feedback entry's review status; undefined when the project has no such entry. */
  async setFeedbackStatus(projectId: string, id: number, status: FeedbackStatus): Promise<StoredFeedback | undefined> {
    await this.sql.transaction((tx) => tx.run('UPDATE "AnalyticsFeedback" SET "status" = ? WHERE "projectId" = ? AND "id" = ?', [status, projectId, id]));
    const [row] = await this.sql.query<Record<string, unknown>>(`SELECT ${FEEDBACK_COLUMNS} FROM "AnalyticsFeedback" WHERE "projectId" = ? AND "id" = ?`, [projectId, id]);
    return row && storedFeedback(row);
  }

  async maxId(table: 'AnalyticsFeedback' | 'AnalyticsSearch'): Promise<number> {
    const [row] = await this.sql.query<{ top: unknown }>(`SELECT MAX("id") AS top FROM "${table}"`);
    return Number(row.top ?? 0);
  }

  /** Feedback newest first (time, then id, descending), after the keyset position when given. */
  async listFeedback(filter: ListFilter, after: [number, number] | undefined, limit: number): Promise<StoredFeedback[]> {
    const { where, params } = this.feedbackWhere(filter);
    if (after) {
      where.push('("ts" < ? OR ("ts" = ? AND "id" < ?))');
      params.push(after[0], after[0], after[1]);
    }
    const rows = await this.sql.query<Record<string, unknown>>(
      `SELECT ${FEEDBACK_COLUMNS} FROM "AnalyticsFeedback" WHERE ${where.join(' AND ')} ORDER BY "ts" DESC, "id" DESC LIMIT ?`,
      [...params, limit],
    );
    return rows.map(storedFeedback);
  }

  /** Feedback counts per page, most feedback first, then path in code-point order. */
  async feedbackByPage(filter: ListFilter, after: [number, string] | undefined, limit: number) {
    const { where, params } = this.feedbackWhere(filter);
    const having: string[] = [];
    if (after) {
      having.push(`HAVING COUNT(*) < ? OR (COUNT(*) = ? AND "path" COLLATE ${this.binary} > ?)`);
      params.push(after[0], after[0], after[1]);
    }
    const votes = VOTES;
    const rows = await this.sql.query<Record<string, unknown>>(
      `SELECT "path", SUM(CASE WHEN ${votes} AND "helpful" = 1 THEN 1 ELSE 0 END) AS up, SUM(CASE WHEN ${votes} AND "helpful" = 0 THEN 1 ELSE 0 END) AS down, ` +
        `SUM(CASE WHEN "source" = 'code_snippet' THEN 1 ELSE 0 END) AS code, COUNT(*) AS total FROM "AnalyticsFeedback" WHERE ${where.join(' AND ')} ` +
        `GROUP BY "path" ${having.join(' ')} ORDER BY total DESC, "path" COLLATE ${this.binary} ASC LIMIT ?`,
      [...params, limit],
    );
    return rows.map((r) => ({ path: String(r.path), thumbsUp: Number(r.up), thumbsDown: Number(r.down), code: Number(r.code), total: Number(r.total) }));
  }

  private feedbackWhere(filter: ListFilter): { where: string[]; params: Param[] } {
    const where = ['"projectId" = ?', '"ts" >= ?', '"ts" < ?', '"id" <= ?'];
    const params: Param[] = [filter.projectId, filter.from, filter.to, filter.snapshot];
    if (filter.source) {
      where.push('"source" = ?');
      params.push(filter.source);
    }
    if (filter.statuses?.length) {
      where.push(`"status" IN (${filter.statuses.map(() => '?').join(', ')})`);
      params.push(...filter.statuses);
    }
    return { where, params };
  }

  /** Search terms by hits descending, then term in code-point order; with the range's total number of searches. */
  async searchTerms(filter: Omit<ListFilter, 'source' | 'statuses'>, after: [number, string] | undefined, limit: number) {
    const base = ['"projectId" = ?', '"ts" >= ?', '"ts" < ?', '"id" <= ?'];
    const params: Param[] = [filter.projectId, filter.from, filter.to, filter.snapshot];
    const having: Param[] = [];
    let havingSql = '';
    if (after) {
      havingSql = `HAVING COUNT(*) < ? OR (COUNT(*) = ? AND "query" COLLATE ${this.binary} > ?)`;
      having.push(after[0], after[0], after[1]);
    }
    const terms = await this.sql.query<{ query: string; hits: unknown; last: unknown }>(
      `SELECT "query", COUNT(*) AS hits, MAX("ts") AS last FROM "AnalyticsSearch" WHERE ${base.join(' AND ')} AND "clickedPath" IS NULL ` +
        `GROUP BY "query" ${havingSql} ORDER BY hits DESC, "query" COLLATE ${this.binary} ASC LIMIT ?`,
      [...params, ...having, limit],
    );
    const [total] = await this.sql.query<{ n: unknown }>(`SELECT COUNT(*) AS n FROM "AnalyticsSearch" WHERE ${base.join(' AND ')} AND "clickedPath" IS NULL`, params);
    const clicks = terms.length
      ? await this.sql.query<{ query: string; path: string; n: unknown }>(
          `SELECT "query", "clickedPath" AS path, COUNT(*) AS n FROM "AnalyticsSearch" WHERE ${base.join(' AND ')} AND "clickedPath" IS NOT NULL ` +
            `AND "query" IN (${terms.map(() => '?').join(', ')}) GROUP BY "query", "clickedPath"`,
          [...params, ...terms.map((t) => t.query)],
        )
      : [];
    return {
      total: Number(total.n),
      terms: terms.map((t) => ({ query: t.query, hits: Number(t.hits), last: Number(t.last) })),
      clicks: clicks.map((c) => ({ query: c.query, path: c.path, clicks: Number(c.n) })),
    };
  }
}
