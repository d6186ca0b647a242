import { createHash } from 'node:crypto';
import type { FeedbackSource, FeedbackStatus } from './feedback-kinds.js';

/** What a feedback listing is narrowed to: one source, any of some review statuses, one page. */
export interface FeedbackFilter {
  source?: FeedbackSource;
  /** in one order (the request schema sorts them), so equal filters describe alike */
  status?: FeedbackStatus[];
  /** the page, as the listings show paths */
  path?: string;
}

/** The filters as one canonical string: a cursor is honoured only with the filters it was made for. */
export function describeFilter(filter: FeedbackFilter): string {
  return `source=${filter.source ?? ''};status=${(filter.status ?? []).join(',')}${describePath(filter.path)}`;
}

/** A page filter as a cursor's filters carry it: a digest, so a long path fits. */
export function describePath(path: string | undefined): string {
  return path === undefined ? '' : `;path=${createHash('sha256').update(path).digest('base64url')}`;
}
