import type { Sql } from '../../store/sql.js';
import { countStoredSearches } from './signal-rollups.js';
import { type LimitKeys, refuseNewRow, type StoreOutcome, type VisitorLimit } from './visitor-limit.js';

export interface NewSearch {
  ts: number;
  query: string;
  clickedPath: string | null;
  visitorHash: string | null;
  limitKeys: LimitKeys;
  key: string | null;
}

/**
 * Stores searches and result clicks; a key seen before is a duplicate (even beyond the visitor limit), new rows beyond
 * the visitor limit are refused.
 */
export function insertSearches(
  sql: Sql,
  params: { projectId: string; now: number; rows: NewSearch[]; limit: VisitorLimit },
): Promise<StoreOutcome[]> {
  // nothing to store takes no write lock
  if (!params.rows.length) return Promise.resolve([]);
  const { projectId, now, rows, limit } = params;
  return sql.transaction(async (tx) => {
    const outcomes: StoreOutcome[] = [];
    const stored: NewSearch[] = [];
    for (const s of rows) {
      const refused = await refuseNewRow(tx, { table: 'AnalyticsSearch', projectId, ...s, limit });
      if (refused) {
        outcomes.push(refused);
        continue;
      }
      const inserted = await tx.query(
        'INSERT INTO "AnalyticsSearch" ("projectId", "ts", "receivedAt", "query", "clickedPath", "visitorHash", "addressHash", "key") ' +
          'VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING "id"',
        [projectId, s.ts, now, s.query, s.clickedPath, s.visitorHash, s.limitKeys.addressHash, s.key],
      );
      outcomes.push(inserted.length ? 'stored' : 'duplicate');
      if (inserted.length) stored.push(s);
    }
    await countStoredSearches(tx, { projectId, rows: stored });
    return outcomes;
  });
}
