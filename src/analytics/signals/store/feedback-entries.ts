import type { Sql } from '../../store/sql.js';
import { bumpSignalsVersion } from '../../store/signals-version.js';
import type { FeedbackFilter } from '../feedback-filter.js';
import type { FeedbackSource, FeedbackStatus } from '../feedback-kinds.js';
import { recordFeedbackChange } from './feedback-changes.js';
import { feedbackWhere } from './feedback-where.js';
import type { NewFeedback } from './insert-feedback.js';
import type { ListWindow } from './list-window.js';

/** One stored piece of feedback, as the listing and a status change answer it. */
export interface FeedbackEntry extends Omit<NewFeedback, 'visitorHash' | 'limitKeys' | 'key'> {
  id: number;
  status: FeedbackStatus;
}

/** keyset position of the last entry a page returned: time, then id */
export type FeedbackEntryKey = [number, number];

const COLUMNS = '"id", "ts", "path", "source", "status", "helpful", "comment", "contact", "code", "filename", "lang"';

function entry(r: Record<string, unknown>): FeedbackEntry {
  return {
    id: Number(r.id),
    ts: Number(r.ts),
    path: String(r.path),
    source: r.source as FeedbackSource,
    status: r.status as FeedbackStatus,
    helpful: r.helpful === null ? null : Number(r.helpful) === 1,
    comment: r.comment as string | null,
    contact: r.contact as string | null,
    code: r.code as string | null,
    filename: r.filename as string | null,
    lang: r.lang as string | null,
  };
}

/** Feedback newest first (time, then id, descending), after the keyset position when given. */
export async function selectFeedbackEntries(
  sql: Sql,
  params: { window: ListWindow; filter: FeedbackFilter; after: FeedbackEntryKey | undefined; limit: number },
): Promise<FeedbackEntry[]> {
  const { from, where, params: values } = feedbackWhere(params.window, params.filter);
  if (params.after) {
    where.push('("ts" < ? OR ("ts" = ? AND "id" < ?))');
    values.push(params.after[0], params.after[0], params.after[1]);
  }
  const rows = await sql.query<Record<string, unknown>>(
    `SELECT ${COLUMNS} FROM ${from} WHERE ${where.join(' AND ')} ORDER BY "ts" DESC, "id" DESC LIMIT ?`,
    [...values, params.limit],
  );
  return rows.map(entry);
}

/** Sets a feedback entry's review status; undefined when the project has no such entry. */
export async function updateFeedbackStatus(
  sql: Sql,
  params: { projectId: string; id: number; status: FeedbackStatus },
): Promise<FeedbackEntry | undefined> {
  const { projectId, id, status } = params;
  await sql.transaction(async (tx) => {
    const [row] = await tx.rows('SELECT 1 FROM "AnalyticsFeedback" WHERE "projectId" = ? AND "id" = ?', [
      projectId,
      id,
    ]);
    if (!row) return;
    await recordFeedbackChange(tx, { projectId, id });
    await tx.run('UPDATE "AnalyticsFeedback" SET "status" = ? WHERE "projectId" = ? AND "id" = ?', [
      status,
      projectId,
      id,
    ]);
    await bumpSignalsVersion(tx, projectId);
  });
  const [row] = await sql.query<Record<string, unknown>>(
    `SELECT ${COLUMNS} FROM "AnalyticsFeedback" WHERE "projectId" = ? AND "id" = ?`,
    [projectId, id],
  );
  return row && entry(row);
}
