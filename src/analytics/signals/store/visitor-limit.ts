import { inChunks, type Sql } from '../../store/sql.js';
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

/** What of a new row the batch checks read: its key, its limit's keys, and the visitor hash it is stored with. */
export interface NewRowKeys {
  key: string | null;
  limitKeys: LimitKeys;
  visitorHash: string | null;
}

/** What admitNewRows decides a batch's rows by: the batch's keys stored before, and its limit keys' use. */
export interface Admission {
  stored: Set<string>;
  /** the stored rows' use of the limit, by the value of each counted column */
  use: { addressHash: Map<string, number>; visitorHash: Map<string, number> };
  max: number;
}

/**
 * Reads the Admission of a batch's rows, with a few queries in all instead of a few per row (as the row-by-row check
 * did): the keys stored before, and the limit's use by every limit key of the batch. Call it in the transaction that
 * stores the admitted rows: it holds the write lock, so nothing else stores between the reads and the insert.
 * `storedKeys`: the batch's keys stored before, when the caller has read them already (they are not read again).
 */
export async function readAdmission(
  tx: Sql,
  params: {
    table: SignalTable;
    projectId: string;
    rows: NewRowKeys[];
    limit: VisitorLimit;
    storedKeys?: Iterable<string>;
  },
): Promise<Admission> {
  const { table, projectId, rows, limit } = params;
  const distinct = (values: (string | null)[]) => [...new Set(values.filter((v): v is string => v !== null))];
  const stored = new Set<string>(params.storedKeys);
  const unread = params.storedKeys ? [] : distinct(rows.map((r) => r.key));
  for (const chunk of inChunks(unread))
    for (const [key] of await tx.rows(
      `SELECT "key" FROM "${table}" WHERE "projectId" = ? AND "key" IN (${chunk.map(() => '?').join(', ')})`,
      [projectId, ...chunk],
    ))
      stored.add(key as string);
  const use: Admission['use'] = { addressHash: new Map(), visitorHash: new Map() };
  const checked = {
    addressHash: distinct(rows.map((r) => r.limitKeys.addressHash)),
    visitorHash: distinct(rows.map((r) => r.limitKeys.visitorIdHash)),
  };
  for (const column of ['addressHash', 'visitorHash'] as const)
    for (const chunk of inChunks(checked[column]))
      for (const [value, n] of await tx.rows(
        `SELECT "${column}", COUNT(*) FROM "${table}" WHERE "projectId" = ? AND "receivedAt" >= ? AND "${column}" IN (${chunk.map(() => '?').join(', ')}) GROUP BY "${column}"`,
        [projectId, limit.since, ...chunk],
      ))
        use[column].set(value as string, Number(n));
  return { stored, use, max: limit.max };
}

/**
 * Decides a batch's new rows in order, each as if the rows before it were stored: a key stored
 * before or admitted earlier in the batch is a duplicate; a row whose address or visitor id has `max` rows counted
 * is rate limited; an admitted row counts against the values it is stored with. `stored` and `use` are updated.
 */
export function admitNewRows(rows: NewRowKeys[], state: Admission): ('duplicate' | 'rate limited' | undefined)[] {
  const { stored, use, max } = state;
  const used = (map: Map<string, number>, value: string | null) => (value === null ? 0 : (map.get(value) ?? 0));
  return rows.map((row) => {
    if (row.key !== null && stored.has(row.key)) return 'duplicate';
    const { addressHash, visitorIdHash } = row.limitKeys;
    // a row without limit keys is not limited, as in overVisitorLimit
    if (
      (addressHash !== null && used(use.addressHash, addressHash) >= max) ||
      (visitorIdHash !== null && used(use.visitorHash, visitorIdHash) >= max)
    )
      return 'rate limited';
    if (row.key !== null) stored.add(row.key);
    if (addressHash !== null) use.addressHash.set(addressHash, used(use.addressHash, addressHash) + 1);
    if (row.visitorHash !== null) use.visitorHash.set(row.visitorHash, used(use.visitorHash, row.visitorHash) + 1);
    return undefined;
  });
}
