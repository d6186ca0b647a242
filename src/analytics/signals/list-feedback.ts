import type { Sql } from '../store/sql.js';
import type { CursorPage, CursorPaging, Keyset, PageRequest } from './cursor-paging.js';
import { describeFilter, type FeedbackFilter } from './feedback-filter.js';
import {
  type PageCountsKey,
  type PageFeedbackCounts,
  selectFeedbackCountsByPage,
} from './store/feedback-counts-by-page.js';
import { type FeedbackEntry, type FeedbackEntryKey, selectFeedbackEntries } from './store/feedback-entries.js';
import { latestId, type ListWindow } from './store/list-window.js';

type ListingDeps = { sql: Sql; paging: CursorPaging };
type FeedbackListParams = { projectId: string; query: PageRequest & FeedbackFilter };

/** Feedback newest first (ties: higher id first), one page at a time. */
export function listFeedback(deps: ListingDeps, params: FeedbackListParams): Promise<CursorPage<FeedbackEntry>> {
  return feedbackListing<FeedbackEntry, FeedbackEntryKey>(deps, {
    ...params,
    name: 'feedback',
    select: selectFeedbackEntries,
    keyOf: (f) => [f.ts, f.id],
  });
}

/** Feedback counts per page, most feedback first (ties: path in code-point order), one page at a time. */
export function listFeedbackByPage(
  deps: ListingDeps,
  params: FeedbackListParams,
): Promise<CursorPage<PageFeedbackCounts>> {
  return feedbackListing<PageFeedbackCounts, PageCountsKey>(deps, {
    ...params,
    name: 'feedback-by-page',
    select: selectFeedbackCountsByPage,
    keyOf: (p) => [p.total, p.path],
  });
}

/** A listing of the feedback table under the query's filter: what the two feedback listings share. */
function feedbackListing<Row, Key extends Keyset>(
  deps: ListingDeps,
  params: FeedbackListParams & {
    name: string;
    select: (
      sql: Sql,
      params: { window: ListWindow; filter: FeedbackFilter; after: Key | undefined; limit: number },
    ) => Promise<Row[]>;
    keyOf: (row: Row) => Key;
  },
): Promise<CursorPage<Row>> {
  const { projectId, query, select } = params;
  const filter = { source: query.source, status: query.status, path: query.path };
  return deps.paging.page<Row, Key>({
    projectId,
    request: query,
    listing: {
      name: params.name,
      filters: describeFilter(filter),
      snapshot: async () => ({
        snapshot: await latestId(deps.sql, 'AnalyticsFeedback'),
        changes: await latestId(deps.sql, 'AnalyticsFeedbackChange'),
      }),
      fetch: ({ window, after, limit }) => select(deps.sql, { window, filter, after, limit }),
      keyOf: params.keyOf,
    },
  });
}
