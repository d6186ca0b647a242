import type { TimeRange } from '../../calendar.js';
import type { Sql } from '../store/sql.js';
import { readMissingPages, type MissingPage } from './missing-pages.js';
import { readNegativeFeedback, type NegativeFeedback } from './negative-feedback.js';
import { readPageReaderSignals, type PageReaderSignals } from './page-reader-signals.js';
import { readPageTraffic, type PageTraffic } from './page-traffic.js';
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

export function problemSignals(sql: Sql): ProblemSignals {
  return {
    missingPages: (params) => readMissingPages(sql, params),
    negativeFeedback: (params) => readNegativeFeedback(sql, params),
    searchTerms: (params) => readSearchTerms(sql, params),
    pageTraffic: (params) => readPageTraffic(sql, params),
    pageReaderSignals: (params) => readPageReaderSignals(sql, params),
  };
}
