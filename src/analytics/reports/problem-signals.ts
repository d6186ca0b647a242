import type { TimeRange } from '../../calendar.js';
import type { Sql } from '../store/sql.js';
import { readMissingPages, readMissingUrls, type MissingPage, type MissingUrl } from './missing-pages.js';
import { readNegativeFeedback, type NegativeFeedback } from './negative-feedback.js';
import { readPageReaderSignals, type PageReaderSignals } from './page-reader-signals.js';
import type { PageTraffic } from './page-traffic.js';
import { readSearchTerms, type SearchTerm } from './search-gaps.js';
import { signalsVersion } from '../store/signals-version.js';

/** The stored signals the problems queue and the page story derive from, read on the analytics connection. */
export interface ProblemSignals {
  missingPages(params: { projectId: string; range: TimeRange; paths?: readonly string[] }): Promise<MissingPage[]>;
  /** the missing URLs with their requests and readers alone (missingPages without the evidence) */
  missingUrls(params: { projectId: string; range: TimeRange }): Promise<MissingUrl[]>;
  negativeFeedback(params: { projectId: string; range: TimeRange; path?: string }): Promise<NegativeFeedback[]>;
  searchTerms(params: {
    projectId: string;
    range: TimeRange;
    gapsOnly: boolean;
    minSearches: number;
    queries?: string[];
  }): Promise<SearchTerm[]>;
  pageTraffic(params: { projectId: string; path: string; range: TimeRange }): Promise<PageTraffic>;
  pageReaderSignals(params: { projectId: string; path: string; range: TimeRange }): Promise<PageReaderSignals>;
  /**
   * A value that changes whenever a stored signal of the project does (its misses, feedback entries and their
   * changes, searches; not its page views: store/signals-version.ts): an answer derived from those signals alone is
   * still right while the stamp read before it is unchanged.
   */
  stamp(projectId: string): Promise<string>;
}

/** The signals read by plain SQL on the primary (a page's traffic is counted from the derived rows: page-traffic.ts). */
export function problemSignals(sql: Sql): Omit<ProblemSignals, 'pageTraffic'> {
  return {
    missingPages: (params) => readMissingPages(sql, params),
    missingUrls: (params) => readMissingUrls(sql, params),
    negativeFeedback: (params) => readNegativeFeedback(sql, params),
    searchTerms: (params) => readSearchTerms(sql, params),
    pageReaderSignals: (params) => readPageReaderSignals(sql, params),
    stamp: (projectId) => signalsVersion(sql, projectId),
  };
}
