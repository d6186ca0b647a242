import type { z } from 'zod';
import type { Clock } from '../../clock.js';
import { Invalid, NotFound } from '../../errors.js';
import type { Sql } from '../sql.js';
import type { VisitorHasher, VisitorIdentity } from '../visitor-hash.js';
import { normalizeIp } from '../client-ip.js';
import { pagePath } from '../page-path.js';
import { createCursorCodec, type CursorCodec, type CursorState } from './page-cursor.js';
import { MAX_COMMENT_LENGTH, MAX_QUERY_LENGTH, normalizeComment, normalizeSearchQuery } from './normalize.js';
import { SignalStore, type NewFeedback, type NewSearch, type PageComment, type PageFeedbackWindow, type StoredFeedback, type StoreOutcome } from './signal-store.js';
import type { FeedbackByPageQuery, FeedbackByPageResponse, FeedbackItem, FeedbackQuery, FeedbackResponse, FeedbackSource, FeedbackStatus, SearchesQuery, SearchesResponse } from './signal-schemas.js';

const HOUR_MS = 3_600_000;
const DEFAULT_RANGE_MS = 30 * 86_400_000;
/** feedback submissions (votes and comments) one visitor may make per project and hour */
export const FEEDBACK_PER_VISITOR_HOUR = 20;
/** searches and result clicks one visitor may record per project and hour */
export const SEARCHES_PER_VISITOR_HOUR = 600;
/** ids are Int columns (32-bit on PostgreSQL): a larger one names no row, and must not reach the query */
const MAX_ROW_ID = 2 ** 31 - 1;
/** server-side submissions stamped further ahead than this are refused (clock skew allowance) */
const FUTURE_SLACK_MS = 5 * 60_000;

/** Who submitted: an address and user agent (hashed, the address then dropped), or the site's own visitor id. */
export interface Submitter {
  ip?: string;
  userAgent?: string;
  visitorId?: string;
}

export interface FeedbackSubmission extends Submitter {
  timestamp?: number;
  /** a path or full URL */
  path: string;
  source?: FeedbackSource;
  helpful?: boolean | null;
  comment?: string | null;
  contact?: string | null;
  code?: string;
  filename?: string | null;
  lang?: string | null;
  /** idempotency key, already namespaced by the caller */
  key?: string;
  /** a browser widget's submission id: scoped to the visitor, a later submission with it updates the first */
  submission?: string;
}

export interface SearchSubmission extends Submitter {
  timestamp?: number;
  query: string;
  clickedPath?: string;
  key?: string;
}

export interface SubmitResult {
  accepted: number;
  duplicates: number;
  rejected: { index: number; error: string }[];
}

type Range = { dateFrom?: number; dateTo?: number; cursor?: string };

/**
 * Feedback one submission call stored: rows inserted, and rows a later submission updated (a widget's comment
 * after its vote). Duplicates, rate-limited and rejected items are not in it.
 */
export interface FeedbackStored {
  projectId: string;
  rows: { id: number; path: string; outcome: 'stored' | 'updated'; newComment: boolean }[];
}

/** Told what was stored, before the submission is answered; must not throw (the feedback is stored either way). */
export type FeedbackStoredListener = (stored: FeedbackStored) => Promise<void>;

/** Page feedback and site searches: collection (hashed, rate-limited) and the compatible listings. */
export class ReaderSignals {
  private readonly store: SignalStore;
  private readonly cursors: CursorCodec;

  constructor(private readonly params: { sql: Sql; secret: string; hasher: VisitorHasher; clock: Clock; onStored?: FeedbackStoredListener }) {
    this.store = new SignalStore(params.sql);
    this.cursors = createCursorCodec(params.secret);
  }

  /** `update`: a key seen before updates its row (the widget's comment after its vote) instead of being a duplicate. */
  async submitFeedback(projectId: string, items: FeedbackSubmission[], onKey: 'skip' | 'update' = 'skip'): Promise<SubmitResult> {
    const now = this.params.clock().getTime();
    const rejected: SubmitResult['rejected'] = [];
    const rows: NewFeedback[] = [];
    const indexes: number[] = [];
    items.forEach((item, index) => {
      const ts = item.timestamp ?? now;
      const path = pagePath(item.path);
      const comment = normalizeComment(item.comment);
      const visitor = this.visitorHash(projectId, item, now);
      const error =
        ts > now + FUTURE_SLACK_MS
          ? 'timestamp: is in the future'
          : path === undefined
            ? 'path: is not a page path or URL'
            : comment !== null && comment.length > MAX_COMMENT_LENGTH
              ? `comment: may be at most ${MAX_COMMENT_LENGTH} characters`
              : visitor !== null && typeof visitor === 'object'
                ? visitor.error
                : undefined;
      if (error) return void rejected.push({ index, error });
      const source = item.source ?? (comment === null ? 'thumbs_only' : 'contextual');
      rows.push({
        ts,
        path: path!,
        source,
        helpful: item.helpful ?? null,
        comment,
        contact: item.contact?.trim() || null,
        code: source === 'code_snippet' ? (item.code ?? '') : null,
        filename: item.filename ?? null,
        lang: item.lang ?? null,
        visitorHash: visitor as string | null,
        // scoped by visitor hash, so nobody else's submission can be overwritten by guessing its id
        key: item.key ?? (item.submission !== undefined && visitor !== null ? `widget:${visitor as string}:${item.submission}` : null),
      });
      indexes.push(index);
    });
    const results = rows.length
      ? await this.store.insertFeedback({ projectId, now, rows, limit: { since: now - HOUR_MS, max: FEEDBACK_PER_VISITOR_HOUR }, onKey })
      : [];
    const stored = results.flatMap((r, i) =>
      (r.outcome === 'stored' || r.outcome === 'updated') && r.id !== null ? [{ id: r.id, path: rows[i].path, outcome: r.outcome, newComment: r.newComment }] : [],
    );
    if (stored.length && this.params.onStored) await this.params.onStored({ projectId, rows: stored });
    return tally(
      results.map((r) => r.outcome),
      indexes,
      rejected,
    );
  }

  /** Pages' feedback windows: rows after each page's `afterId` that arrived since `receivedSince` (epoch ms). */
  pageWindows(params: { projectId: string; receivedSince: number; pages: { path: string; afterId: number }[] }): Promise<Map<string, PageFeedbackWindow>> {
    return this.store.pageWindows(params);
  }

  pageThumbs(projectId: string, path: string): Promise<{ thumbsUp: number; thumbsDown: number }> {
    return this.store.pageThumbs(projectId, path);
  }

  /** The newest `limit` comments of such a window, up to row `throughId`. */
  pageComments(params: { projectId: string; path: string; afterId: number; throughId: number; receivedSince: number; limit: number }): Promise<PageComment[]> {
    return this.store.pageComments(params);
  }

  async submitSearches(projectId: string, items: SearchSubmission[]): Promise<SubmitResult> {
    const now = this.params.clock().getTime();
    const rejected: SubmitResult['rejected'] = [];
    const rows: NewSearch[] = [];
    const indexes: number[] = [];
    items.forEach((item, index) => {
      const ts = item.timestamp ?? now;
      const query = normalizeSearchQuery(item.query);
      const clickedPath = item.clickedPath === undefined ? null : pagePath(item.clickedPath);
      const visitor = this.visitorHash(projectId, item, now);
      const error =
        ts > now + FUTURE_SLACK_MS
          ? 'timestamp: is in the future'
          : query === undefined
            ? 'query: is empty'
            : query.length > MAX_QUERY_LENGTH
              ? `query: may be at most ${MAX_QUERY_LENGTH} characters`
              : clickedPath === undefined
                ? 'clickedPath: is not a page path or URL'
                : visitor !== null && typeof visitor === 'object'
                  ? visitor.error
                  : undefined;
      if (error) return void rejected.push({ index, error });
      rows.push({ ts, query: query!, clickedPath: clickedPath!, visitorHash: visitor as string | null, key: item.key ?? null });
      indexes.push(index);
    });
    const outcomes = rows.length ? await this.store.insertSearches({ projectId, now, rows, limit: { since: now - HOUR_MS, max: SEARCHES_PER_VISITOR_HOUR } }) : [];
    return tally(outcomes, indexes, rejected);
  }

  /** The visitor's keyed hash (null when none is given, as a trusted server may), or why it cannot be made. */
  private visitorHash(projectId: string, s: Submitter, now: number): string | null | { error: string } {
    let identity: VisitorIdentity | undefined;
    if (s.visitorId !== undefined) identity = { type: 'given', visitorId: s.visitorId };
    else if (s.ip !== undefined) {
      const ip = normalizeIp(s.ip);
      if (!ip) return { error: 'ip: is not a valid IP address' };
      identity = { type: 'human', ip, userAgent: s.userAgent ?? '' };
    }
    return identity ? this.params.hasher(projectId, identity, now) : null;
  }

  async feedback(projectId: string, query: z.output<typeof FeedbackQuery>): Promise<z.input<typeof FeedbackResponse>> {
    const filters = `source=${query.source ?? ''};status=${(query.status ?? []).join(',')}`;
    const state = await this.position({ listing: 'feedback', projectId, query, filters, table: 'AnalyticsFeedback' });
    const rows = await this.store.listFeedback(
      { projectId, ...state, source: query.source, statuses: query.status },
      state.after as [number, number] | undefined,
      query.limit + 1,
    );
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    const hasMore = rows.length > query.limit;
    return {
      feedback: page.map(feedbackEntry),
      nextCursor: hasMore && last ? this.cursors.encode('feedback', projectId, { ...state, filters, after: [last.ts, last.id] }) : null,
      hasMore,
    };
  }

  /** Sets the review status of one entry (ids are the listing's); NotFound when the project has no such entry. */
  async setFeedbackStatus(projectId: string, id: string, status: FeedbackStatus): Promise<z.input<typeof FeedbackItem>> {
    const number = /^[1-9]\d{0,9}$/.test(id) && Number(id) <= MAX_ROW_ID ? Number(id) : undefined;
    const updated = number === undefined ? undefined : await this.store.setFeedbackStatus(projectId, number, status);
    if (!updated) throw new NotFound(`No feedback ${id} in this project`);
    return feedbackEntry(updated);
  }

  async feedbackByPage(projectId: string, query: z.output<typeof FeedbackByPageQuery>): Promise<z.input<typeof FeedbackByPageResponse>> {
    const filters = `source=${query.source ?? ''};status=${(query.status ?? []).join(',')}`;
    const state = await this.position({ listing: 'feedback-by-page', projectId, query, filters, table: 'AnalyticsFeedback' });
    const rows = await this.store.feedbackByPage(
      { projectId, ...state, source: query.source, statuses: query.status },
      state.after as [number, string] | undefined,
      query.limit + 1,
    );
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    const hasMore = rows.length > query.limit;
    return {
      feedback: page,
      hasMore,
      nextCursor: hasMore && last ? this.cursors.encode('feedback-by-page', projectId, { ...state, filters, after: [last.total, last.path] }) : null,
    };
  }

  /**
   * Search terms by hits. `ctr` is clicks on the term's results divided by its searches, at most 1 (a search
   * whose reader opened three results counts once as far as the cap goes); `topClickedPage` the result clicked
   * most (ties: first path in code-point order).
   */
  async searches(projectId: string, query: z.output<typeof SearchesQuery>): Promise<z.input<typeof SearchesResponse>> {
    const state = await this.position({ listing: 'searches', projectId, query, filters: '', table: 'AnalyticsSearch' });
    const result = await this.store.searchTerms({ projectId, ...state }, state.after as [number, string] | undefined, query.limit + 1);
    const page = result.terms.slice(0, query.limit);
    const hasMore = result.terms.length > query.limit;
    const last = page.at(-1);
    return {
      searches: page.map((t) => {
        const clicks = result.clicks.filter((c) => c.query === t.query).sort((a, b) => b.clicks - a.clicks || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
        const clicked = clicks.reduce((n, c) => n + c.clicks, 0);
        return {
          searchQuery: t.query,
          hits: t.hits,
          ctr: Math.round(Math.min(1, clicked / t.hits) * 10_000) / 10_000,
          topClickedPage: clicks[0]?.path ?? null,
          lastSearchedAt: new Date(t.last).toISOString(),
        };
      }),
      totalSearches: result.total,
      nextCursor: hasMore && last ? this.cursors.encode('searches', projectId, { ...state, filters: '', after: [last.hits, last.query] }) : null,
      hasMore,
    };
  }

  /**
   * Where a listing starts: from its cursor (range, filters and snapshot as on the first page; explicit
   * parameters must agree with them) or, on a first page, the requested range and the rows that exist now.
   */
  private async position(params: { listing: string; projectId: string; query: Range; filters: string; table: 'AnalyticsFeedback' | 'AnalyticsSearch' }) {
    const { listing, projectId, query, filters, table } = params;
    if (query.cursor !== undefined) {
      const state: CursorState = this.cursors.decode(listing, projectId, query.cursor);
      const differs = state.filters !== filters || (query.dateFrom !== undefined && query.dateFrom !== state.from) || (query.dateTo !== undefined && query.dateTo !== state.to);
      if (differs) throw new Invalid('Invalid query parameters', [{ message: 'cursor: was returned for other dateFrom, dateTo or filters than these' }]);
      return state;
    }
    const to = query.dateTo ?? this.params.clock().getTime();
    const from = query.dateFrom ?? to - DEFAULT_RANGE_MS;
    if (from >= to) throw new Invalid('Invalid query parameters', [{ message: 'dateFrom must be before dateTo' }]);
    return { from, to, filters, snapshot: await this.store.maxId(table), after: undefined };
  }
}


function feedbackEntry(f: StoredFeedback): z.input<typeof FeedbackItem> {
  return {
    id: String(f.id),
    path: f.path,
    comment: f.comment,
    createdAt: new Date(f.ts).toISOString(),
    source: f.source,
    status: f.status,
    helpful: f.helpful,
    contact: f.contact,
    ...(f.source === 'code_snippet' ? { code: f.code ?? '', filename: f.filename, lang: f.lang } : {}),
  };
}

function tally(outcomes: StoreOutcome[], indexes: number[], rejected: SubmitResult['rejected']): SubmitResult {
  let accepted = 0;
  let duplicates = 0;
  outcomes.forEach((outcome, i) => {
    if (outcome === 'rate limited') rejected.push({ index: indexes[i], error: 'rate limited: too many submissions from this visitor in the last hour' });
    else {
      accepted++;
      if (outcome === 'duplicate') duplicates++;
    }
  });
  rejected.sort((a, b) => a.index - b.index);
  return { accepted, duplicates, rejected };
}
