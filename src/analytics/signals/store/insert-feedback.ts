import type { Sql } from '../../store/sql.js';
import type { FeedbackSource } from '../feedback-kinds.js';
import { recordFeedbackChange } from './feedback-changes.js';
import { countedFeedback, countFeedbackChange } from './signal-rollups.js';
import { type LimitKeys, refuseNewRow, type StoreOutcome, type VisitorLimit } from './visitor-limit.js';

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
 */
export function insertFeedback(
  sql: Sql,
  params: { projectId: string; now: number; rows: NewFeedback[]; limit: VisitorLimit; onKey: 'skip' | 'update' },
): Promise<StoreResult[]> {
  // nothing to store takes no write lock
  if (!params.rows.length) return Promise.resolve([]);
  const { projectId, now, rows, limit, onKey } = params;
  return sql.transaction(async (tx) => {
    const outcomes: StoreResult[] = [];
    for (const f of rows) {
      if (f.key !== null && onKey === 'update') {
        const [existing] = await tx.query<{ id: unknown; comment: string | null }>(
          'SELECT "id", "comment" FROM "AnalyticsFeedback" WHERE "projectId" = ? AND "key" = ?',
          [projectId, f.key],
        );
        if (existing) {
          const id = Number(existing.id);
          const before = (await countedFeedback(tx, { projectId, id })) ?? null;
          await recordFeedbackChange(tx, { projectId, id });
          await tx.run(
            'UPDATE "AnalyticsFeedback" SET "helpful" = ?, "comment" = COALESCE(?, "comment"), "source" = ? WHERE "id" = ?',
            [
              f.helpful === null ? null : Number(f.helpful),
              f.comment,
              f.comment === null ? f.source : 'contextual',
              existing.id as number,
            ],
          );
          const after = (await countedFeedback(tx, { projectId, id })) ?? null;
          await countFeedbackChange(tx, { projectId, before, after });
          outcomes.push({
            outcome: 'updated',
            id: Number(existing.id),
            newComment: f.comment !== null && f.comment !== existing.comment,
          });
          continue;
        }
      }
      const refused = await refuseNewRow(tx, { table: 'AnalyticsFeedback', projectId, ...f, limit });
      if (refused) {
        outcomes.push({ outcome: refused, id: null, newComment: false });
        continue;
      }
      const [inserted] = await tx.query<{ id: unknown }>(
        'INSERT INTO "AnalyticsFeedback" ("projectId", "ts", "receivedAt", "path", "source", "status", "helpful", "comment", "contact", "code", "filename", "lang", "visitorHash", "addressHash", "key") ' +
          'VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING "id"',
        [
          projectId,
          f.ts,
          now,
          f.path,
          f.source,
          'pending',
          f.helpful === null ? null : Number(f.helpful),
          f.comment,
          f.contact,
          f.code,
          f.filename,
          f.lang,
          f.visitorHash,
          f.limitKeys.addressHash,
          f.key,
        ],
      );
      if (inserted) {
        const after = {
          ts: f.ts,
          path: f.path,
          source: f.source,
          status: 'pending',
          helpful: f.helpful === null ? null : Number(f.helpful),
        };
        await countFeedbackChange(tx, { projectId, before: null, after });
      }
      outcomes.push(
        inserted
          ? { outcome: 'stored', id: Number(inserted.id), newComment: f.comment !== null }
          : { outcome: 'duplicate', id: null, newComment: false },
      );
    }
    return outcomes;
  });
}
