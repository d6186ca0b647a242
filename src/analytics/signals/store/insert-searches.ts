import type { Sql } from '../../store/sql.js';
import { bumpSignalsVersion } from '../../store/signals-version.js';
import { admitNewRows, type LimitKeys, readAdmission, type StoreOutcome, type VisitorLimit } from './visitor-limit.js';
import { countStoredSearches } from './search-days.js';

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
 * the visitor limit are refused. A few statements per batch, whatever its size (readAdmission, one insert).
 */
export function insertSearches(
  sql: Sql,
  params: { projectId: string; now: number; rows: NewSearch[]; limit: VisitorLimit },
): Promise<StoreOutcome[]> {
  // nothing to store takes no write lock
  if (!params.rows.length) return Promise.resolve([]);
  const { projectId, now, rows, limit } = params;
  return sql.transaction(async (tx) => {
    const refused = admitNewRows(rows, await readAdmission(tx, { table: 'AnalyticsSearch', projectId, rows, limit }));
    const stored = rows.filter((_, i) => refused[i] === undefined);
    // one statement for the batch: admitNewRows, under the write lock, leaves no key that is stored already
    await tx.insertMany({
      table: 'AnalyticsSearch',
      columns: [
        ['projectId', 'text'],
        ['ts', 'bigint'],
        ['receivedAt', 'bigint'],
        ['query', 'text'],
        ['clickedPath', 'text'],
        ['visitorHash', 'text'],
        ['addressHash', 'text'],
        ['key', 'text'],
      ],
      rows: stored.map((s) => [
        projectId,
        s.ts,
        now,
        s.query,
        s.clickedPath,
        s.visitorHash,
        s.limitKeys.addressHash,
        s.key,
      ]),
    });
    await countStoredSearches(tx, { projectId, rows: stored });
    if (stored.length) await bumpSignalsVersion(tx, projectId);
    return refused.map((r): StoreOutcome => r ?? 'stored');
  });
}
