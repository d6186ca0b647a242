import type { FeedbackSource, FeedbackStatus } from './feedback-kinds.js';

/** What a feedback listing is narrowed to: one source, and any of some review statuses. */
export interface FeedbackFilter {
  source?: FeedbackSource;
  /** in one order (the request schema sorts them), so equal filters describe alike */
  status?: FeedbackStatus[];
}

/** The filters as one canonical string: a cursor is honoured only with the filters it was made for. */
export function describeFilter(filter: FeedbackFilter): string {
  return `source=${filter.source ?? ''};status=${(filter.status ?? []).join(',')}`;
}
