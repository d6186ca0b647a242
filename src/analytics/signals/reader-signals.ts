import type { Clock } from '../../clock.js';
import type { Sql } from '../store/sql.js';
import type { DayCache } from '../store/day-cache.js';
import type { VisitorHasher } from '../ingest/visitor-hash.js';
import { type CursorPage, CursorPaging, type PageRequest } from './cursor-paging.js';
import type { FeedbackFilter } from './feedback-filter.js';
import type { FeedbackStatus } from './feedback-kinds.js';
import type { FeedbackStoredListener } from './feedback-stored.js';
import { listFeedback, listFeedbackByPage } from './list-feedback.js';

import { listSearches, type SearchReport } from './list-searches.js';
import { setFeedbackStatus } from './set-feedback-status.js';
import type { FeedbackEntry } from './store/feedback-entries.js';
import type { PageFeedbackCounts } from './store/feedback-counts-by-page.js';
import {
  type PageComment,
  type PageCommentsQuery,
  type PageFeedbackWindow,
  type PageWindowsQuery,
  selectPageComments,
  selectPageThumbs,
  selectPageWindows,
} from './store/page-feedback.js';
import type { BatchResult } from '../ingest/batch-result.js';
import { type FeedbackSubmission, submitFeedback } from './submit-feedback.js';
import { type SearchSubmission, submitSearches } from './submit-searches.js';

/**
 * Page feedback and site searches: collection (hashed, rate-limited), the paged listings, and the per-page reads the
 * feedback trigger makes. The one door the rest of the service uses.
 */
export class ReaderSignals {
  private readonly paging: CursorPaging;

  constructor(
    private readonly deps: {
      sql: Sql;
      secret: string;
      hasher: VisitorHasher;
      clock: Clock;
      /** the analytics cache: the searches listing keeps its windows' tallies there */
      cache: DayCache;
      onStored?: FeedbackStoredListener;
    },
  ) {
    this.paging = new CursorPaging({ secret: deps.secret, clock: deps.clock });
  }

  /** `update`: a key seen before updates its row (the widget's comment after its vote) instead of being a duplicate. */
  submitFeedback(
    projectId: string,
    items: FeedbackSubmission[],
    onKey: 'skip' | 'update' = 'skip',
  ): Promise<BatchResult> {
    return submitFeedback(this.deps, { projectId, items, onKey });
  }

  submitSearches(projectId: string, items: SearchSubmission[]): Promise<BatchResult> {
    return submitSearches(this.deps, { projectId, items });
  }

  feedback(projectId: string, query: PageRequest & FeedbackFilter): Promise<CursorPage<FeedbackEntry>> {
    return listFeedback({ sql: this.deps.sql, paging: this.paging }, { projectId, query });
  }

  setFeedbackStatus(projectId: string, id: string, status: FeedbackStatus): Promise<FeedbackEntry> {
    return setFeedbackStatus(this.deps.sql, { projectId, id, status });
  }

  feedbackByPage(projectId: string, query: PageRequest & FeedbackFilter): Promise<CursorPage<PageFeedbackCounts>> {
    return listFeedbackByPage({ sql: this.deps.sql, paging: this.paging }, { projectId, query });
  }

  searches(projectId: string, query: PageRequest & { path?: string }): Promise<SearchReport> {
    return listSearches({ sql: this.deps.sql, paging: this.paging, cache: this.deps.cache }, { projectId, query });
  }

  /** Pages' feedback windows: rows after each page's `afterId` that arrived since `receivedSince` (epoch ms). */
  pageWindows(params: PageWindowsQuery): Promise<Map<string, PageFeedbackWindow>> {
    return selectPageWindows(this.deps.sql, params);
  }

  pageThumbs(projectId: string, path: string): Promise<{ thumbsUp: number; thumbsDown: number }> {
    return selectPageThumbs(this.deps.sql, { projectId, path });
  }

  /** The newest `limit` comments of such a window, up to row `throughId`. */
  pageComments(params: PageCommentsQuery): Promise<PageComment[]> {
    return selectPageComments(this.deps.sql, params);
  }
}
