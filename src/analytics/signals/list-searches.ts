import type { Sql } from '../store/sql.js';
import type { DayCache } from '../store/day-cache.js';
import type { CursorPage, CursorPaging, PageRequest } from './cursor-paging.js';
import { latestId, type ListWindow } from './store/list-window.js';
import {
  type SearchTally,
  type SearchTermKey,
  type SearchTermRow,
  searchTermsPage,
  tallySearches,
  termClicks,
  termsLeadingTo,
  totalSearches,
} from './store/search-terms.js';
import { describePath } from './feedback-filter.js';

/**
 * A window's tally of searches and result clicks, kept in the analytics cache for the listing's next pages and calls.
 * It never changes: it counts the searches up to the window's snapshot (a row id), and stored searches are never
 * changed or removed, so the key alone names it.
 */
async function keptTally(sql: Sql, cache: DayCache, window: ListWindow): Promise<SearchTally> {
  const lease = cache.lease();
  try {
    const key = `${window.projectId}:search tally:${window.from}:${window.to}:${window.snapshot}`;
    return await lease.keep(key, 'searches up to the snapshot', async () => {
      const tally = await tallySearches(sql, window);
      let bytes = 64;
      for (const t of tally.terms) bytes += 48 + 2 * t.query.length;
      for (const pages of tally.clicks.values()) for (const path of pages.keys()) bytes += 48 + 2 * path.length;
      return { ...tally, bytes };
    });
  } finally {
    // a tally holds no native memory: nothing is freed under the caller once let go
    lease.release();
  }
}

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
  deps: { sql: Sql; paging: CursorPaging; cache: DayCache },
  params: { projectId: string; query: PageRequest & { path?: string } },
): Promise<SearchReport> {
  const { path } = params.query;
  // the page's terms, their clicks and the total come from one tally of the window
  let tally: Promise<SearchTally> | undefined;
  const tallied = (window: ListWindow) => {
    tally ??= keptTally(deps.sql, deps.cache, window);
    return tally;
  };
  // with `path`: only the terms whose results readers clicked to reach it
  const only = async (window: ListWindow) =>
    path === undefined ? undefined : termsLeadingTo(await tallied(window), path);
  const page = await deps.paging.page<SearchTermRow, SearchTermKey>({
    projectId: params.projectId,
    request: params.query,
    listing: {
      name: 'searches',
      filters: describePath(path),
      // searches are never changed once stored
      snapshot: async () => ({ snapshot: await latestId(deps.sql, 'AnalyticsSearch'), changes: 0 }),
      fetch: async ({ window, after, limit }) =>
        searchTermsPage((await tallied(window)).terms, { after, limit, only: await only(window) }),
      keyOf: (t) => [t.hits, t.query],
    },
  });
  const counted = await tallied(page.window);
  return {
    ...page,
    rows: page.rows.map((t) => searchTerm(t, counted)),
    totalSearches: totalSearches(counted.terms, await only(page.window)),
  };
}

function searchTerm(t: SearchTermRow, tally: SearchTally): SearchTerm {
  const clicked = termClicks(tally, t.query);
  return {
    query: t.query,
    hits: t.hits,
    ctr: Math.round(Math.min(1, (clicked?.clicks ?? 0) / t.hits) * 10_000) / 10_000,
    topClickedPage: clicked?.topPath ?? null,
    lastSearchedAt: t.last,
  };
}
