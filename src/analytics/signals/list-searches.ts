import type { Sql } from '../store/sql.js';
import type { DayCache } from '../store/day-cache.js';
import type { CursorPage, CursorPaging, PageRequest } from './cursor-paging.js';
import { latestId, type ListWindow } from './store/list-window.js';
import {
  type SearchTermKey,
  type SearchTermRow,
  searchTermsPage,
  tallySearches,
  type TermClicks,
  termClicks,
  termsLeadingTo,
  totalSearches,
} from './store/search-terms.js';
import { describePath } from './feedback-filter.js';

/**
 * What a listing counted of its window (the terms' searches; a page's terms' result clicks), kept in the analytics
 * cache for its next pages and calls. It never changes: it counts the searches up to the window's snapshot (a row
 * id), and stored searches are never changed or removed, so the key alone names it.
 */
async function keptOfWindow<T>(
  cache: DayCache,
  params: { window: ListWindow; what: string; count: () => Promise<T>; bytes: (value: T) => number },
): Promise<T> {
  const { window } = params;
  const key = `${window.projectId}:searches ${params.what}:${window.from}:${window.to}:${window.snapshot}`;
  const kept = await cache.keep(key, 'searches up to the snapshot', async () => {
    const value = await params.count();
    return { value, bytes: params.bytes(value) };
  });
  return kept.value;
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
  // the page's terms and the total come from one tally of the window's searches, the clicks of those terms after it
  let tally: Promise<SearchTermRow[]> | undefined;
  const tallied = (window: ListWindow) => {
    tally ??= keptOfWindow(deps.cache, {
      window,
      what: 'tally',
      count: () => tallySearches(deps.sql, window),
      bytes: (terms) => 64 + terms.reduce((n, t) => n + 48 + 2 * t.query.length, 0),
    });
    return tally;
  };
  // with `path`: only the terms whose results readers clicked to reach it (along the clicked pages' index)
  let leading: Promise<Set<string>> | undefined;
  const terms = (window: ListWindow) => {
    if (path === undefined) return undefined;
    leading ??= termsLeadingTo(deps.sql, window, path);
    return leading;
  };
  const page = await deps.paging.page<SearchTermRow, SearchTermKey>({
    projectId: params.projectId,
    request: params.query,
    listing: {
      name: 'searches',
      filters: describePath(path),
      // searches are never changed once stored
      snapshot: async () => ({ snapshot: await latestId(deps.sql, 'AnalyticsSearch'), changes: 0 }),
      fetch: async ({ window, after, limit }) =>
        searchTermsPage(await tallied(window), { after, limit, only: await terms(window) }),
      keyOf: (t) => [t.hits, t.query],
    },
  });
  const counted = await tallied(page.window);
  const queries = page.rows.map((t) => t.query);
  // a page's clicks are read along the terms' index, a few terms at a time, and kept like the tally
  const clicks = await keptOfWindow(deps.cache, {
    window: page.window,
    what: `clicks of ${JSON.stringify(queries)}`,
    count: () => termClicks(deps.sql, page.window, queries),
    bytes: (found) => 64 + [...found].reduce((n, [query, c]) => n + 64 + 2 * (query.length + c.topPath.length), 0),
  });
  return {
    ...page,
    rows: page.rows.map((t) => searchTerm(t, clicks)),
    totalSearches: totalSearches(counted, await terms(page.window)),
  };
}

function searchTerm(t: SearchTermRow, clicks: Map<string, TermClicks>): SearchTerm {
  const clicked = clicks.get(t.query);
  return {
    query: t.query,
    hits: t.hits,
    ctr: Math.round(Math.min(1, (clicked?.clicks ?? 0) / t.hits) * 10_000) / 10_000,
    topClickedPage: clicked?.topPath ?? null,
    lastSearchedAt: t.last,
  };
}
