import { NotFound } from '../../errors.js';
import type { Sql } from '../store/sql.js';
import type { FeedbackStatus } from './feedback-kinds.js';
import { type FeedbackEntry, updateFeedbackStatus } from './store/feedback-entries.js';

/** ids are Int columns (32-bit on PostgreSQL): a larger one names no row, and must not reach the query */
const MAX_ROW_ID = 2 ** 31 - 1;

/** Sets the review status of one entry (ids are the listing's); NotFound when the project has no such entry. */
export async function setFeedbackStatus(
  sql: Sql,
  params: { projectId: string; id: string; status: FeedbackStatus },
): Promise<FeedbackEntry> {
  const { projectId, id, status } = params;
  const number = /^[1-9]\d{0,9}$/.test(id) && Number(id) <= MAX_ROW_ID ? Number(id) : undefined;
  const updated = number === undefined ? undefined : await updateFeedbackStatus(sql, { projectId, id: number, status });
  if (!updated) throw new NotFound(`No feedback ${id} in this project`);
  return updated;
}
