import type { TimeRange } from '../../calendar.js';
import type { Sql } from '../store/sql.js';
import { readMissingPages, type MissingPage } from './missing-pages.js';
import { readNegativeFeedback, type NegativeFeedback } from './negative-feedback.js';
import { readPageReaderSignals, type PageReaderSignals } from './page-reader-signals.js';
import type { PageTraffic } from './page-traffic.js';
import { readSearchTerms, type SearchTerm } from './search-gaps.js';

/** The stored signals the problems queue and the page story derive from, read on the analytics connection. */
export interface ProblemSignals {
  missingPages(params: { projectId: string; range: TimeRange; path?: string }): Promise<MissingPage[]>;
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
}

/** The signals read by plain SQL on the primary (a page's traffic is counted from the derived rows: page-traffic.ts). */
export function problemSignals(sql: Sql): Omit<ProblemSignals, 'pageTraffic'> {
  return {
    missingPages: (params) => readMissingPages(sql, params),
    negativeFeedback: (params) => readNegativeFeedback(sql, params),
    searchTerms: (params) => readSearchTerms(sql, params),
    pageReaderSignals: (params) => readPageReaderSignals(sql, params),
  };
}
