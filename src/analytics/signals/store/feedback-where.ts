import type { Param } from '../../store/sql.js';
import type { FeedbackFilter } from '../feedback-filter.js';
import { feedbackAsOf } from './feedback-changes.js';
import type { ListWindow } from './list-window.js';

/**
 * What a feedback listing reads: the feedback as it stood at the window's first page, and the conditions of its window
 * and filter, with the parameters of both in order.
 */
export function feedbackWhere(
  window: ListWindow,
  filter: FeedbackFilter,
): { from: string; where: string[]; params: Param[] } {
  const asOf = feedbackAsOf(window.changes);
  const where = ['"projectId" = ?', '"ts" >= ?', '"ts" < ?', '"id" <= ?'];
  const params: Param[] = [...asOf.params, window.projectId, window.from, window.to, window.snapshot];
  if (filter.source) {
    where.push('"source" = ?');
    params.push(filter.source);
  }
  if (filter.status?.length) {
    where.push(`"status" IN (${filter.status.map(() => '?').join(', ')})`);
    params.push(...filter.status);
  }
  if (filter.path !== undefined) {
    where.push('"path" = ?');
    params.push(filter.path);
  }
  return { from: asOf.source, where, params };
}
