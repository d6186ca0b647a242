import { inChunks, type Sql } from '../../store/sql.js';
import { bumpSignalsVersion } from '../../store/signals-version.js';
import type { FeedbackSource } from '../feedback-kinds.js';
import { recordFeedbackChange } from './feedback-changes.js';
import { admitNewRows, type LimitKeys, readAdmission, type StoreOutcome, type VisitorLimit } from './visitor-limit.js';

export interface NewFeedback {
  ts: number;
  path: string;
  source: FeedbackSource;
  helpful: boolean | null;
  comment: string | null;
  contact: string | null;
  code: string | null;
  filename: string | null;
  lang: string | null;
  visitorHash: string | null;
  limitKeys: LimitKeys;
  key: string | null;
}

/** One submission's fate, with the row it was stored in (stored or updated) and whether it brought a comment the row did not have. */
export interface StoreResult {
  outcome: StoreOutcome;
  id: number | null;
  newComment: boolean;
}

/**
 * Stores feedback. With `update`, a row whose key exists already is updated (a widget's comment following its
 * vote) rather than counted again; otherwise it is a duplicate, even beyond the visitor limit. New rows beyond the
 * visitor limit are refused.
 *
 * A few statements per batch, whatever its size: the batch's stored keys and limit use are read first, new rows are
 * decided in order (admitNewRows) and inserted together with their counts. Only an update costs statements of its
 * own; one that follows a new row of the same key in the batch stores the rows before it first.
 */
export function insertFeedback(
  sql: Sql,
  params: { projectId: string; now: number; rows: NewFeedback[]; limit: VisitorLimit; onKey: 'skip' | 'update' },
): Promise<StoreResult[]> {
  // nothing to store takes no write lock
  if (!params.rows.length) return Promise.resolve([]);
  const { projectId, now, rows, limit, onKey } = params;
  return sql.transaction(async (tx) => {
    const results: StoreResult[] = [];
    // with `update`: the rows a key of the batch names, stored before or by the batch (id and comment); the keys
    // stored before are then the admission's, not read twice
    const keyed = onKey === 'update' ? await storedKeys(tx, projectId, rows) : undefined;
    const admission = await readAdmission(tx, {
      table: 'AnalyticsFeedback',
      projectId,
      rows,
      limit,
      storedKeys: keyed?.keys(),
    });
    /** admitted rows not inserted yet, by index in `rows` */
    let pending: number[] = [];
    const pendingKeys = new Set<string>();
    const insertPending = async () => {
      const inserted = await insertRows(tx, {
        projectId,
        now,
        rows: pending.map((i) => rows[i]),
      });
      pending.forEach((i, n) => {
        const f = rows[i];
        results[i] = { outcome: 'stored', id: inserted[n], newComment: f.comment !== null };
        if (f.key !== null && keyed) keyed.set(f.key, { id: inserted[n], comment: f.comment });
      });
      pending = [];
      pendingKeys.clear();
    };
    for (const [i, f] of rows.entries()) {
      if (f.key !== null && keyed) {
        if (pendingKeys.has(f.key)) await insertPending();
        const existing = keyed.get(f.key);
        if (existing) {
          results[i] = await updateRow(tx, { projectId, id: existing.id, f, comment: existing.comment });
          existing.comment = f.comment ?? existing.comment;
          continue;
        }
      }
      const [refused] = admitNewRows([f], admission);
      if (refused) {
        results[i] = { outcome: refused, id: null, newComment: false };
        continue;
      }
      pending.push(i);
      if (f.key !== null) pendingKeys.add(f.key);
    }
    if (pending.length) await insertPending();
    if (results.some((r) => r.outcome === 'stored' || r.outcome === 'updated')) await bumpSignalsVersion(tx, projectId);
    return results;
  });
}

/** A stored row a key names: its id and comment. */
interface KeyedRow {
  id: number;
  comment: string | null;
}

/** The stored rows the batch's keys name. */
async function storedKeys(tx: Sql, projectId: string, rows: NewFeedback[]): Promise<Map<string, KeyedRow>> {
  const keys = [...new Set(rows.flatMap((f) => (f.key === null ? [] : [f.key])))];
  const found = new Map<string, KeyedRow>();
  for (const chunk of inChunks(keys))
    for (const [id, key, comment] of await tx.rows(
      `SELECT "id", "key", "comment" FROM "AnalyticsFeedback" WHERE "projectId" = ? AND "key" IN (${chunk.map(() => '?').join(', ')})`,
      [projectId, ...chunk],
    ))
      found.set(key as string, { id: Number(id), comment: comment as string | null });
  return found;
}

/** A widget's later submission applied to the row its key names (its change recorded). */
async function updateRow(
  tx: Sql,
  params: { projectId: string; id: number; f: NewFeedback; comment: string | null },
): Promise<StoreResult> {
  const { projectId, id, f } = params;
  await recordFeedbackChange(tx, { projectId, id });
  await tx.run(
    'UPDATE "AnalyticsFeedback" SET "helpful" = ?, "comment" = COALESCE(?, "comment"), "source" = ? WHERE "id" = ?',
    [helpfulValue(f), f.comment, f.comment === null ? f.source : 'contextual', id],
  );
  return { outcome: 'updated', id, newComment: f.comment !== null && f.comment !== params.comment };
}

/** The stored form of a vote: 1 helpful, 0 not, null none. */
const helpfulValue = (f: NewFeedback) => (f.helpful === null ? null : Number(f.helpful));

/**
 * Inserts admitted rows in one statement (insertMany); returns their ids in the rows' order. Ids are
 * assigned in the order the rows are inserted (SQLite's rowid, PostgreSQL's sequence, unnest's array order), so the
 * ascending ids are the rows' whatever order RETURNING gives them in. No conflict is possible: the transaction holds
 * the write lock and admitNewRows called every key stored before or earlier in the batch a duplicate.
 */
async function insertRows(tx: Sql, params: { projectId: string; now: number; rows: NewFeedback[] }): Promise<number[]> {
  const { projectId, now, rows } = params;
  const returned = await tx.insertMany<{ id: unknown }>({
    table: 'AnalyticsFeedback',
    columns: [
      ['projectId', 'text'],
      ['ts', 'bigint'],
      ['receivedAt', 'bigint'],
      ['path', 'text'],
      ['source', 'text'],
      ['status', 'text'],
      ['helpful', 'int'],
      ['comment', 'text'],
      ['contact', 'text'],
      ['code', 'text'],
      ['filename', 'text'],
      ['lang', 'text'],
      ['visitorHash', 'text'],
      ['addressHash', 'text'],
      ['key', 'text'],
    ],
    rows: rows.map((f) => [
      projectId,
      f.ts,
      now,
      f.path,
      f.source,
      'pending',
      helpfulValue(f),
      f.comment,
      f.contact,
      f.code,
      f.filename,
      f.lang,
      f.visitorHash,
      f.limitKeys.addressHash,
      f.key,
    ]),
    suffix: 'RETURNING "id"',
  });
  return returned.map((r) => Number(r.id)).sort((a, b) => a - b);
}
