import type { Sql } from '../store/sql.js';
import type { CursorPage, CursorPaging, PageRequest } from './cursor-paging.js';
import { latestId } from './store/list-window.js';
import {
  countSearches,
  type SearchClicks,
  type SearchTermKey,
  type SearchTermRow,
  selectSearchClicks,
  selectSearchTerms,
} from './store/search-terms.js';

/** A search term's standing in a range. */
export interface SearchTerm {
  query: string;
  hits: number;
  /** clicks on the term's results divided by its searches, at most 1, to four decimals */
  ctr: number;
  topClickedPage: string | null;
  /** epoch ms */
  lastSearchedAt: number;
}

export interface SearchReport extends CursorPage<SearchTerm> {
  /** all searches in the range, not only this page's terms */
  totalSearches: number;
}

/**
 * Search terms by hits, one page at a time. `ctr` is capped at 1 (a search whose reader opened three results counts
 * once as far as the cap goes); `topClickedPage` is the result clicked most (ties: first path in code-point order).
 */
export async function listSearches(
  deps: { sql: Sql; paging: CursorPaging },
  params: { projectId: string; query: PageRequest },
): Promise<SearchReport> {
  const page = await deps.paging.page<SearchTermRow, SearchTermKey>({
    projectId: params.projectId,
    request: params.query,
    listing: {
      name: 'searches',
      filters: '',
      // searches are never changed once stored
      snapshot: async () => ({ snapshot: await latestId(deps.sql, 'AnalyticsSearch'), changes: 0 }),
      fetch: ({ window, after, limit }) => selectSearchTerms(deps.sql, { window, after, limit }),
      keyOf: (t) => [t.hits, t.query],
    },
  });
  const queries = page.rows.map((t) => t.query);
  const clicks = await selectSearchClicks(deps.sql, { window: page.window, queries });
  const totalSearches = await countSearches(deps.sql, page.window);
  return { ...page, rows: page.rows.map((t) => searchTerm(t, clicks)), totalSearches };
}

function searchTerm(t: SearchTermRow, clicks: SearchClicks[]): SearchTerm {
  const mine = clicks
    .filter((c) => c.query === t.query)
    .sort((a, b) => b.clicks - a.clicks || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const clicked = mine.reduce((n, c) => n + c.clicks, 0);
  return {
    query: t.query,
    hits: t.hits,
    ctr: Math.round(Math.min(1, clicked / t.hits) * 10_000) / 10_000,
    topClickedPage: mine[0]?.path ?? null,
    lastSearchedAt: t.last,
  };
}
