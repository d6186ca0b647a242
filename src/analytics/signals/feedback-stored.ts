/**
 * Feedback one submission call stored: rows inserted, and rows a later submission updated (a widget's comment
 * after its vote). Duplicates, rate-limited and rejected items are not in it.
 */
export interface FeedbackStored {
  projectId: string;
  rows: { id: number; path: string; outcome: 'stored' | 'updated'; newComment: boolean }[];
}

/** Told what was stored, before the submission is answered; must not throw (the feedback is stored either way). */
export type FeedbackStoredListener = (stored: FeedbackStored) => Promise<void>;
