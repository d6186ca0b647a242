import type { SignalTable } from '../../src/analytics/signals/store/list-window.js';
import type { LimitKeys, VisitorLimit } from '../../src/analytics/signals/store/visitor-limit.js';
import type { Sql } from '../../src/analytics/store/sql.js';

/**
 * The row-by-row check the batch ones (readAdmission with admitNewRows) replaced, kept as the tests'
 * reference: why a new row is not to be stored, asked with its own queries after the rows before it were stored —
 * its key was stored before (a duplicate), or its submitter has used up its limit. Undefined: store it.
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
