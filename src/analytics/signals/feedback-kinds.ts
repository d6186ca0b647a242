/** Where a piece of feedback came from, and where its review stands. */
export const FEEDBACK_SOURCES = ['code_snippet', 'contextual', 'agent', 'thumbs_only'] as const;
export const FEEDBACK_STATUSES = ['pending', 'in_progress', 'resolved', 'dismissed'] as const;
export type FeedbackSource = (typeof FEEDBACK_SOURCES)[number];
export type FeedbackStatus = (typeof FEEDBACK_STATUSES)[number];
