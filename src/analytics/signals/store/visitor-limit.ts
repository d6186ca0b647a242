import type { Sql } from '../../store/sql.js';
import type { SignalTable } from './list-window.js';

/** Per-visitor limit: at most `max` new rows since `since` (receive time) by each of a submitter's limit keys. */
export interface VisitorLimit {
  since: number;
  max: number;
}

/**
 * What a submitter's new rows count against, each on its own: the hash of its address alone (stored as
 * `addressHash`) and the hash of its given visitor id (its `visitorHash`). Null where none was given.
 */
export interface LimitKeys {
  addressHash: string | null;
  visitorIdHash: string | null;
}

/** What became of one submission. */
export type StoreOutcome = 'stored' | 'updated' | 'duplicate' | 'rate limited';

/**
 * Why a new row is not to be stored, asked before it is: its key was stored before (a duplicate, so a client retrying
 * after a timeout learns its item is stored, and a duplicate uses none of the limit), or its submitter has used up its
 * limit. Undefined: store it.
 */
export async function refuseNewRow(
  tx: Sql,
  params: {
    table: SignalTable;
    projectId: string;
    key: string | null;
    limitKeys: LimitKeys;
    limit: VisitorLimit;
  },
): Promise<'duplicate' | 'rate limited' | undefined> {
  const { table, projectId, key } = params;
  if (key !== null) {
    const [stored] = await tx.query(`SELECT 1 AS one FROM "${table}" WHERE "projectId" = ? AND "key" = ?`, [
      projectId,
      key,
    ]);
    if (stored) return 'duplicate';
  }
  return (await overVisitorLimit(tx, params)) ? 'rate limited' : undefined;
}

/** Whether a submitter has used up its limit on a table by any of its keys; one without keys is not limited. */
async function overVisitorLimit(
  tx: Sql,
  params: { table: SignalTable; projectId: string; limitKeys: LimitKeys; limit: VisitorLimit },
): Promise<boolean> {
  const { table, projectId, limitKeys, limit } = params;
  const keys = [
    ['addressHash', limitKeys.addressHash],
    ['visitorHash', limitKeys.visitorIdHash],
  ] as const;
  for (const [column, hash] of keys) {
    if (hash === null) continue;
    const [row] = await tx.query<{ n: unknown }>(
      `SELECT COUNT(*) AS n FROM "${table}" WHERE "projectId" = ? AND "${column}" = ? AND "receivedAt" >= ?`,
      [projectId, hash, limit.since],
    );
    if (Number(row.n) >= limit.max) return true;
  }
  return false;
}
