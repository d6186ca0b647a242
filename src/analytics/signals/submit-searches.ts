import type { Clock } from '../../clock.js';
import { pagePath } from '../ingest/page-path.js';
import type { Sql } from '../store/sql.js';
import type { VisitorHasher } from '../ingest/visitor-hash.js';
import { characterCount, MAX_QUERY_LENGTH, normalizeSearchQuery, tooLong } from './normalize.js';
import { insertSearches, type NewSearch } from './store/insert-searches.js';
import { prepareBatch, tallyOutcomes } from './submit-batch.js';
import { unstorableField } from './unstorable-field.js';
import type { BatchResult } from '../ingest/batch-result.js';
import type { Submitter } from './submitter.js';
import { HOUR_MS } from '../../calendar.js';

/** searches and result clicks one address, or one given visitor id, may record per project and hour */
export const SEARCHES_PER_VISITOR_HOUR = 600;

export interface SearchSubmission extends Submitter {
  timestamp?: number;
  query: string;
  clickedPath?: string;
  key?: string;
}

/** Checks, hashes and stores searches and result clicks. */
export async function submitSearches(
  deps: { sql: Sql; hasher: VisitorHasher; clock: Clock },
  params: { projectId: string; items: SearchSubmission[] },
): Promise<BatchResult> {
  const { projectId } = params;
  const { now, rows, indexes, rejected } = prepareBatch({
    deps,
    projectId,
    items: params.items,
    prepare: (item, { ts, visitorHash, limitKeys }): { row: NewSearch } | { error: string } => {
      const query = normalizeSearchQuery(item.query);
      const clickedPath = item.clickedPath === undefined ? null : pagePath(item.clickedPath);
      if (query === undefined) return { error: 'query: is empty' };
      if (characterCount(query) > MAX_QUERY_LENGTH) return { error: `query: ${tooLong(MAX_QUERY_LENGTH)}` };
      if (clickedPath === undefined) return { error: 'clickedPath: is not a page path or URL' };
      // the key is the caller's `id`, namespaced
      const unstorable = unstorableField({ id: item.key });
      if (unstorable !== undefined) return { error: unstorable };
      return { row: { ts, query, clickedPath, visitorHash, limitKeys, key: item.key ?? null } };
    },
  });
  const limit = { since: now - HOUR_MS, max: SEARCHES_PER_VISITOR_HOUR };
  const outcomes = await insertSearches(deps.sql, { projectId, now, rows, limit });
  return tallyOutcomes({ outcomes, indexes, rejected });
}
